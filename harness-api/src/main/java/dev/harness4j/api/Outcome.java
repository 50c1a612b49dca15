package dev.harness4j.api;

import java.util.Locale;

/**
 * How a run ended, including the error classes a caller acts on (retry, wait, give up).
 * Written to meta files by {@link #wireName()} ({@code completed}, {@code no-op}, ...).
 */
public enum Outcome {
    /** The harness finished and changed the workspace (or reported success). */
    COMPLETED,
    /** The harness finished cleanly but changed nothing. */
    NO_OP,
    /** An error that fits no finer class. */
    ERROR,
    /** The guard stopped the run (inactivity or max runtime). */
    TIMEOUT,
    /** The run was bailed or shut down. */
    BAILED,
    /** The prompt exceeded the model's context window; terminal, never retried. */
    CONTEXT_OVERFLOW,
    /** The endpoint rate-limited the run; retry after the reset time. */
    RATE_LIMITED,
    /** The endpoint refused the credentials (401/403); never retried. */
    AUTH,
    /** A passing failure (5xx, 529 overloaded, dropped connection); retried with backoff. */
    TRANSIENT,
    /** The endpoint refused the request as malformed (other 400s); never retried. */
    BAD_REQUEST,
    /** The harness stopped at its max-turns limit. */
    MAX_TURNS,
    /** The run passed a budget limit: the CLI's own, or the guard's on metered tokens, cost or model requests. */
    BUDGET,
    /**
     * The run did its work, but the model that answered was not the one asked for, or no one
     * could tell which model answered, and the runner was told to require the served model
     * (strict mode): its result cannot be trusted as a result of the requested model. Written
     * {@code model-mismatch}; not a success and never retried (the same endpoint would answer
     * the same way), so a queue and a bench count it as failed.
     */
    MODEL_MISMATCH;

    /**
     * The kebab-case name used on disk: {@code no-op}, {@code rate-limited}, ...
     *
     * @return the wire name
     */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * Parses a {@link #wireName()} (or the enum constant's name).
     *
     * @param name a wire name or constant name, surrounding blanks ignored
     * @return the outcome
     * @throws IllegalArgumentException when the name is no outcome
     */
    public static Outcome fromWireName(String name) {
        return valueOf(name.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
    }

    /**
     * Whether the run did what it was asked without an error ({@code completed} or {@code no-op}).
     *
     * @return whether the outcome is a success
     */
    public boolean isSuccess() {
        return this == COMPLETED || this == NO_OP;
    }

    /**
     * Whether running the same spec again may succeed ({@code transient}, {@code rate-limited}).
     *
     * @return whether a retry may succeed
     */
    public boolean isRetryable() {
        return this == TRANSIENT || this == RATE_LIMITED;
    }
}
