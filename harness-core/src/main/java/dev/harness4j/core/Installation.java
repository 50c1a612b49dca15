package dev.harness4j.core;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * Whether a harness's CLI is installed, where, and which version it reported.
 *
 * @param harnessId the adapter's id
 * @param binary the binary name the adapter asked for
 * @param executable the absolute path found, or {@code null} when not installed
 * @param version the first line the version probe printed, or {@code null} when it was not run
 *     or failed
 * @param installHint the adapter's install command
 */
public record Installation(String harnessId, String binary, Path executable, String version, String installHint) {
    public Installation {
        Objects.requireNonNull(harnessId, "harnessId");
        Objects.requireNonNull(binary, "binary");
        Objects.requireNonNull(installHint, "installHint");
    }

    public boolean installed() {
        return executable != null;
    }

    public Optional<Path> executablePath() {
        return Optional.ofNullable(executable);
    }

    public Optional<String> versionText() {
        return Optional.ofNullable(version);
    }
}
