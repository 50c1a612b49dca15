package dev.harness4j.api;

import java.util.Optional;

/** Shared outcome rules adapters build on. Pure functions. */
public final class Outcomes {
    private Outcomes() {}

    /**
     * The outcome a guard or start failure imposes regardless of what the harness printed:
     * {@code timeout} for the guard's time limits, {@code budget} for its budget limits, {@code bailed} for bail and shutdown, {@code error}
     * when the process never started; empty when the process exited by itself.
     *
     * @param termination how the process ended
     * @return the imposed outcome; empty when the process exited by itself
     */
    public static Optional<Outcome> fromTermination(Termination termination) {
        return switch (termination.kind()) {
            case INACTIVITY_TIMEOUT, MAX_RUNTIME -> Optional.of(Outcome.TIMEOUT);
            case BAILED, SHUTDOWN -> Optional.of(Outcome.BAILED);
            case START_FAILED -> Optional.of(Outcome.ERROR);
            case BUDGET -> Optional.of(Outcome.BUDGET);
            case EXITED -> Optional.empty();
        };
    }

    /**
     * The rule for harnesses without a result envelope: a stopped run is {@code timeout} or
     * {@code bailed}; exit 0 and ({@code headMoved || dirty}) is {@code completed}; exit 0 and
     * nothing changed is {@code no-op}; any other exit is {@code error}.
     *
     * @param execution what the process did
     * @return the outcome by that rule
     */
    public static Outcome opaque(Execution execution) {
        Optional<Outcome> imposed = fromTermination(execution.termination());
        if (imposed.isPresent()) {
            return imposed.get();
        }
        if (!execution.exitedCleanly()) {
            return Outcome.ERROR;
        }
        return execution.changes().changed() ? Outcome.COMPLETED : Outcome.NO_OP;
    }

    /**
     * Classifies an HTTP status an endpoint answered with: 429 rate-limited, 401/403 auth,
     * 5xx and 529 transient, 413 context-overflow, other 4xx bad-request; empty for
     * anything else.
     *
     * @param status the HTTP status code
     * @return the outcome class; empty for a status that is no error
     */
    public static Optional<Outcome> fromHttpStatus(int status) {
        if (status == 429) {
            return Optional.of(Outcome.RATE_LIMITED);
        }
        if (status == 401 || status == 403) {
            return Optional.of(Outcome.AUTH);
        }
        if (status == 413) {
            return Optional.of(Outcome.CONTEXT_OVERFLOW);
        }
        if (status >= 500 && status <= 599) {
            return Optional.of(Outcome.TRANSIENT);
        }
        if (status >= 400 && status <= 499) {
            return Optional.of(Outcome.BAD_REQUEST);
        }
        return Optional.empty();
    }

    /**
     * Whether an error text speaks of an exceeded context window, in the words CLIs use.
     *
     * @param text an error text, or {@code null}
     * @return whether it names an exceeded context window ({@code false} for {@code null})
     */
    public static boolean mentionsContextOverflow(String text) {
        if (text == null) {
            return false;
        }
        String t = text.toLowerCase(java.util.Locale.ROOT);
        return t.contains("context length") || t.contains("context window") || t.contains("context_length")
                || t.contains("prompt is too long") || t.contains("maximum context") || t.contains("too many tokens")
                || t.contains("contextwindowexceeded") || t.contains("context overflow");
    }
}
