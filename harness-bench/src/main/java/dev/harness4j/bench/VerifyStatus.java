package dev.harness4j.bench;

import java.util.Locale;
import java.util.Optional;

/** How a run's verification ended, as {@code meta.json}'s {@code verify.status} says. */
public enum VerifyStatus {
    /** The verify command exited 0. */
    PASSED,
    /** The verify command exited non-zero (but not 126 or 127). */
    FAILED,
    /** The verify command could not run (start failure, exit 126 or 127, a bad reward file, a stop). */
    VERIFIER_ERROR,
    /** The verify command ran past its timeout and was stopped with its whole process tree. */
    VERIFIER_TIMEOUT,
    /** The run did not complete, so it was not verified. */
    NOT_VERIFIED;

    /** The name in {@code meta.json}: {@code passed}, {@code verifier-error}, ... */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The status with this wire name, if any. */
    public static Optional<VerifyStatus> fromWire(String wire) {
        for (VerifyStatus s : values()) {
            if (s.wireName().equals(wire)) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }
}
