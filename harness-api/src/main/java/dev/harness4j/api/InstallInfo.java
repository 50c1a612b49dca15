package dev.harness4j.api;

import java.util.List;
import java.util.Objects;

/**
 * How to find, version-check and install a harness's CLI.
 *
 * @param binary the executable's name looked up on {@code PATH} (or a configured path)
 * @param versionArgs arguments that make the binary print its version and exit, e.g. {@code
 *     ["--version"]}
 * @param installHint the exact command a user runs to install the pinned version, e.g. {@code
 *     npm i -g opencode-ai@1.18.33}
 */
public record InstallInfo(String binary, List<String> versionArgs, String installHint) {
    /**
     * Checks the binary and copies the arguments.
     *
     * @param binary the executable's name, not blank
     * @param versionArgs arguments that make the binary print its version and exit
     * @param installHint the exact command that installs the pinned version
     */
    public InstallInfo {
        Objects.requireNonNull(binary, "binary");
        if (binary.isBlank()) {
            throw new IllegalArgumentException("binary must not be blank");
        }
        versionArgs = List.copyOf(Objects.requireNonNull(versionArgs, "versionArgs"));
        Objects.requireNonNull(installHint, "installHint");
    }
}
