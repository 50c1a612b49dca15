package dev.harness4j.core.provider;

import dev.harness4j.api.HarnessException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A provider configuration could not be read or written: malformed JSON (the message names the
 * file, line and column), unknown fields (named), a bad value (a base URL that is not an http(s)
 * URL, an env var name that is not a name), or an I/O failure.
 */
public class ProviderConfigException extends HarnessException {
    private static final long serialVersionUID = 1L;

    private final transient Path file;

    public ProviderConfigException(Path file, String message) {
        super(message);
        this.file = file;
    }

    public ProviderConfigException(Path file, String message, Throwable cause) {
        super(message, cause);
        this.file = file;
    }

    /** The configuration file concerned, when there is one. */
    public Optional<Path> file() {
        return Optional.ofNullable(file);
    }
}
