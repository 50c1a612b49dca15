package dev.harness4j.api;

import java.time.Duration;

/**
 * Limits the guard enforces on one run; each is off when {@code null}.
 *
 * @param inactivityTimeout stop the run when no new output line (one that differs from the
 *     previous line) arrived for this long; {@code null} = off
 * @param maxRuntime stop the run after this long in total; {@code null} = off
 * @param maxTurns passed to CLIs that can limit their agent turns; {@code null} = the CLI's own
 *     default
 */
public record Limits(Duration inactivityTimeout, Duration maxRuntime, Integer maxTurns) {

    /** No limits at all: the run goes on until the harness exits or is bailed. */
    public static final Limits NONE = new Limits(null, null, null);

    /**
     * Checks the limits.
     *
     * @param inactivityTimeout positive, or {@code null} for off
     * @param maxRuntime positive, or {@code null} for off
     * @param maxTurns at least 1, or {@code null} for the CLI's default
     * @throws IllegalArgumentException for a zero or negative limit
     */
    public Limits {
        requirePositive(inactivityTimeout, "inactivityTimeout");
        requirePositive(maxRuntime, "maxRuntime");
        if (maxTurns != null && maxTurns < 1) {
            throw new IllegalArgumentException("maxTurns must be >= 1, was " + maxTurns);
        }
    }

    /**
     * A copy with another inactivity timeout.
     *
     * @param value the timeout, or {@code null} for off
     * @return the copy
     */
    public Limits withInactivityTimeout(Duration value) {
        return new Limits(value, maxRuntime, maxTurns);
    }

    /**
     * A copy with another max runtime.
     *
     * @param value the runtime, or {@code null} for off
     * @return the copy
     */
    public Limits withMaxRuntime(Duration value) {
        return new Limits(inactivityTimeout, value, maxTurns);
    }

    /**
     * A copy with another max-turns limit.
     *
     * @param value the turns, or {@code null} for the CLI's default
     * @return the copy
     */
    public Limits withMaxTurns(Integer value) {
        return new Limits(inactivityTimeout, maxRuntime, value);
    }

    private static void requirePositive(Duration d, String name) {
        if (d != null && (d.isNegative() || d.isZero())) {
            throw new IllegalArgumentException(name + " must be positive, was " + d);
        }
    }
}
