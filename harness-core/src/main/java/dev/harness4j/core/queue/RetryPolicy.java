package dev.harness4j.core.queue;

import dev.harness4j.api.Outcome;
import dev.harness4j.core.internal.util.Checks;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * What the queue does after an attempt, by the attempt's {@link Outcome}.
 *
 * <ul>
 *   <li>{@code transient} (5xx, overloaded, dropped connection): queued again after an
 *       exponential backoff ({@code initialBackoff × 2^(attempts-1)}, at most {@code
 *       maxBackoff}), until {@code maxAttempts} attempts were made.
 *   <li>{@code rate-limited}: queued again not before the reset time the harness reported
 *       ({@code HarnessResult.retryAt}), else {@code rateLimitWait}; no run of the same provider
 *       starts before then. Counts against {@code maxAttempts} too.
 *   <li>{@code timeout}: not retried unless {@code retryTimeouts}: a run that hit the guard's
 *       limits usually hits them again, and runs are costly.
 *   <li>{@code context-overflow}, {@code auth}, {@code bad-request} and every other outcome:
 *       never retried.
 *   <li>a crashed attempt (its JVM died): queued again at once while attempts remain.
 * </ul>
 *
 * @param maxAttempts how many attempts an entry gets in all (at least 1)
 * @param initialBackoff the wait before the first transient retry
 * @param maxBackoff the longest wait between transient retries
 * @param rateLimitWait the wait after a rate limit that named no reset time
 * @param retryTimeouts whether {@code timeout} outcomes are retried like transient ones
 */
public record RetryPolicy(int maxAttempts, Duration initialBackoff, Duration maxBackoff, Duration rateLimitWait,
        boolean retryTimeouts) {

    /** 3 attempts, backoff 30 s doubling up to 10 min, 60 s after an undated rate limit, timeouts not retried. */
    public static final RetryPolicy DEFAULT =
            new RetryPolicy(3, Duration.ofSeconds(30), Duration.ofMinutes(10), Duration.ofSeconds(60), false);

    /** One attempt, nothing retried. */
    public static final RetryPolicy NEVER = new RetryPolicy(1, Duration.ofSeconds(1), Duration.ofSeconds(1),
            Duration.ofSeconds(1), false);

    public RetryPolicy {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be >= 1, was " + maxAttempts);
        }
        Checks.positive(initialBackoff, "initialBackoff");
        Checks.positive(maxBackoff, "maxBackoff");
        Checks.positive(rateLimitWait, "rateLimitWait");
    }

    public RetryPolicy withMaxAttempts(int value) {
        return new RetryPolicy(value, initialBackoff, maxBackoff, rateLimitWait, retryTimeouts);
    }

    public RetryPolicy withBackoff(Duration initial, Duration max) {
        return new RetryPolicy(maxAttempts, initial, max, rateLimitWait, retryTimeouts);
    }

    public RetryPolicy withRateLimitWait(Duration value) {
        return new RetryPolicy(maxAttempts, initialBackoff, maxBackoff, value, retryTimeouts);
    }

    public RetryPolicy withRetryTimeouts(boolean value) {
        return new RetryPolicy(maxAttempts, initialBackoff, maxBackoff, rateLimitWait, value);
    }

    /**
     * When to run again after an attempt that ended with {@code outcome}, or {@code null} when
     * the entry is not retried.
     *
     * @param attempts the attempts made so far, this one included
     * @param retryAt the reset time a rate limit reported, or {@code null}
     */
    public Instant retryTime(Outcome outcome, int attempts, Instant retryAt, Instant now) {
        Objects.requireNonNull(outcome, "outcome");
        if (attempts >= maxAttempts) {
            return null;
        }
        return switch (outcome) {
            case TRANSIENT -> now.plus(backoff(attempts));
            case TIMEOUT -> retryTimeouts ? now.plus(backoff(attempts)) : null;
            case RATE_LIMITED -> retryAt != null && retryAt.isAfter(now) ? retryAt : now.plus(rateLimitWait);
            default -> null;
        };
    }

    /** The backoff after the given number of attempts: {@code initialBackoff × 2^(attempts-1)}, capped. */
    public Duration backoff(int attempts) {
        int doublings = Math.max(0, Math.min(attempts - 1, 30));
        Duration d = initialBackoff.multipliedBy(1L << doublings);
        return d.compareTo(maxBackoff) > 0 ? maxBackoff : d;
    }
}
