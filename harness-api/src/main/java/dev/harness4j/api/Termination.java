package dev.harness4j.api;

import java.util.Objects;

/**
 * Why a harness process ended.
 *
 * @param kind the closed set of reasons
 * @param reason a human-readable reason, e.g. {@code no new output within 30 s}; {@code null}
 *     for a normal exit
 */
public record Termination(Kind kind, String reason) {

    /** The ways a run's process can end. */
    public enum Kind {
        /** The process exited by itself. */
        EXITED,
        /** The guard stopped it: no new output within the inactivity timeout. */
        INACTIVITY_TIMEOUT,
        /** The guard stopped it: the max runtime was exceeded. */
        MAX_RUNTIME,
        /** Someone bailed the run. */
        BAILED,
        /** The JVM shut down or the runner was closed while it ran. */
        SHUTDOWN,
        /** The process could not be started (e.g. the binary does not exist). */
        START_FAILED,
        /** The guard stopped it: the run's metered tokens, cost or model requests passed a budget limit. */
        BUDGET,
        /**
         * The guard stopped it: its endpoint answered rate-limited (HTTP 429) more times in a row
         * than the run allows, with no successful model answer between ({@link Harness#stopAfterRateLimits()}).
         */
        RATE_LIMITED,
        /**
         * The guard stopped it: its model endpoint refused the run's credentials (HTTP 401 or 403),
         * which no retry heals.
         */
        AUTH_REFUSED,
        /**
         * The guard stopped it: its model requests failed more times in a row than the run allows
         * (HTTP 5xx, or the endpoint unreachable, reset or timed out), with no successful model answer between.
         */
        ENDPOINT_FAILING
    }

    /**
     * Checks the kind.
     *
     * @param kind why the process ended
     * @param reason a human-readable reason, or {@code null}
     */
    public Termination {
        Objects.requireNonNull(kind, "kind");
    }

    /**
     * A normal exit.
     *
     * @return a termination of kind {@code EXITED} without a reason
     */
    public static Termination exited() {
        return new Termination(Kind.EXITED, null);
    }

    /**
     * Whether the guard or a caller stopped the process (it did not exit by itself).
     *
     * @return whether the process was stopped
     */
    public boolean stopped() {
        return kind != Kind.EXITED && kind != Kind.START_FAILED;
    }
}
