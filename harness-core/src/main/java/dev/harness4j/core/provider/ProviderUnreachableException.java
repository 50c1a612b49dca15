package dev.harness4j.core.provider;

import dev.harness4j.api.HarnessException;
import java.util.List;

/**
 * No endpoint of a provider answered a model-catalogue probe. The message lists every URL tried
 * and what happened (connection refused, timed out, HTTP status, not a model list); nothing was
 * written.
 */
public class ProviderUnreachableException extends HarnessException {
    private static final long serialVersionUID = 1L;

    private final String provider;
    private final List<String> attempts;

    public ProviderUnreachableException(String provider, List<String> attempts, Throwable cause) {
        super("could not fetch the model catalogue of provider '" + provider + "': no endpoint answered with a"
                + " model list. Tried:\n  " + String.join("\n  ", attempts)
                + "\nCheck that the endpoint is running and that base_url is right; nothing was written.", cause);
        this.provider = provider;
        this.attempts = List.copyOf(attempts);
    }

    public String provider() {
        return provider;
    }

    /** One line per URL tried: the URL and what happened. */
    public List<String> attempts() {
        return attempts;
    }
}
