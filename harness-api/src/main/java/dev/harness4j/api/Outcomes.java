package dev.harness4j.api;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The outcome rules adapters build on, now in {@link dev.harness4j.api.support.Outcomes}: this class
 * forwards to it for one release.
 *
 * @deprecated use {@link dev.harness4j.api.support.Outcomes}; this forwarder goes in the release after 0.1.0
 */
@Deprecated(since = "0.1.0", forRemoval = true)
public final class Outcomes {
    private Outcomes() {}

    /**
     * Forwards to {@link dev.harness4j.api.support.Outcomes#fromTermination}.
     *
     * @param termination as there
     * @return as there
     * @deprecated use {@link dev.harness4j.api.support.Outcomes#fromTermination}
     */
    @Deprecated(since = "0.1.0", forRemoval = true)
    public static Optional<Outcome> fromTermination(Termination termination) {
        return dev.harness4j.api.support.Outcomes.fromTermination(termination);
    }

    /**
     * Forwards to {@link dev.harness4j.api.support.Outcomes#opaque}.
     *
     * @param execution as there
     * @return as there
     * @deprecated use {@link dev.harness4j.api.support.Outcomes#opaque}
     */
    @Deprecated(since = "0.1.0", forRemoval = true)
    public static Outcome opaque(Execution execution) {
        return dev.harness4j.api.support.Outcomes.opaque(execution);
    }

    /**
     * Forwards to {@link dev.harness4j.api.support.Outcomes#fromHttpStatus}.
     *
     * @param status as there
     * @return as there
     * @deprecated use {@link dev.harness4j.api.support.Outcomes#fromHttpStatus}
     */
    @Deprecated(since = "0.1.0", forRemoval = true)
    public static Optional<Outcome> fromHttpStatus(int status) {
        return dev.harness4j.api.support.Outcomes.fromHttpStatus(status);
    }

    /**
     * Forwards to {@link dev.harness4j.api.support.Outcomes#refusesKey}.
     *
     * @param status as there
     * @param body as there
     * @return as there
     * @deprecated use {@link dev.harness4j.api.support.Outcomes#refusesKey}
     */
    @Deprecated(since = "0.1.0", forRemoval = true)
    public static boolean refusesKey(int status, String body) {
        return dev.harness4j.api.support.Outcomes.refusesKey(status, body);
    }

    /**
     * Forwards to {@link dev.harness4j.api.support.Outcomes#fromHttpAnswer}.
     *
     * @param status as there
     * @param body as there
     * @return as there
     * @deprecated use {@link dev.harness4j.api.support.Outcomes#fromHttpAnswer}
     */
    @Deprecated(since = "0.1.0", forRemoval = true)
    public static Optional<Outcome> fromHttpAnswer(int status, String body) {
        return dev.harness4j.api.support.Outcomes.fromHttpAnswer(status, body);
    }

    /**
     * Forwards to {@link dev.harness4j.api.support.Outcomes#mentionsContextOverflow}.
     *
     * @param text as there
     * @return as there
     * @deprecated use {@link dev.harness4j.api.support.Outcomes#mentionsContextOverflow}
     */
    @Deprecated(since = "0.1.0", forRemoval = true)
    public static boolean mentionsContextOverflow(String text) {
        return dev.harness4j.api.support.Outcomes.mentionsContextOverflow(text);
    }

    /**
     * Forwards to {@link dev.harness4j.api.support.Outcomes#mentionsRateLimit}.
     *
     * @param text as there
     * @return as there
     * @deprecated use {@link dev.harness4j.api.support.Outcomes#mentionsRateLimit}
     */
    @Deprecated(since = "0.1.0", forRemoval = true)
    public static boolean mentionsRateLimit(String text) {
        return dev.harness4j.api.support.Outcomes.mentionsRateLimit(text);
    }

    /**
     * Forwards to {@link dev.harness4j.api.support.Outcomes#mentionsAuthFailure}.
     *
     * @param text as there
     * @return as there
     * @deprecated use {@link dev.harness4j.api.support.Outcomes#mentionsAuthFailure}
     */
    @Deprecated(since = "0.1.0", forRemoval = true)
    public static boolean mentionsAuthFailure(String text) {
        return dev.harness4j.api.support.Outcomes.mentionsAuthFailure(text);
    }

    /**
     * Forwards to {@link dev.harness4j.api.support.Outcomes#mentionsTransient}.
     *
     * @param text as there
     * @return as there
     * @deprecated use {@link dev.harness4j.api.support.Outcomes#mentionsTransient}
     */
    @Deprecated(since = "0.1.0", forRemoval = true)
    public static boolean mentionsTransient(String text) {
        return dev.harness4j.api.support.Outcomes.mentionsTransient(text);
    }

    /**
     * Forwards to {@link dev.harness4j.api.support.Outcomes#fromText}.
     *
     * @param text as there
     * @return as there
     * @deprecated use {@link dev.harness4j.api.support.Outcomes#fromText}
     */
    @Deprecated(since = "0.1.0", forRemoval = true)
    public static Optional<Outcome> fromText(String text) {
        return dev.harness4j.api.support.Outcomes.fromText(text);
    }

    /**
     * Forwards to {@link dev.harness4j.api.support.Outcomes#retryAfter}.
     *
     * @param text as there
     * @return as there
     * @deprecated use {@link dev.harness4j.api.support.Outcomes#retryAfter}
     */
    @Deprecated(since = "0.1.0", forRemoval = true)
    public static Optional<Duration> retryAfter(String text) {
        return dev.harness4j.api.support.Outcomes.retryAfter(text);
    }

    /**
     * Forwards to {@link dev.harness4j.api.support.Outcomes#resetAt}.
     *
     * @param text as there
     * @return as there
     * @deprecated use {@link dev.harness4j.api.support.Outcomes#resetAt}
     */
    @Deprecated(since = "0.1.0", forRemoval = true)
    public static Optional<Instant> resetAt(String text) {
        return dev.harness4j.api.support.Outcomes.resetAt(text);
    }

    /**
     * Forwards to {@link dev.harness4j.api.support.Outcomes#retryAt}.
     *
     * @param execution as there
     * @param text as there
     * @return as there
     * @deprecated use {@link dev.harness4j.api.support.Outcomes#retryAt}
     */
    @Deprecated(since = "0.1.0", forRemoval = true)
    public static Optional<Instant> retryAt(Execution execution, String text) {
        return dev.harness4j.api.support.Outcomes.retryAt(execution, text);
    }
}
