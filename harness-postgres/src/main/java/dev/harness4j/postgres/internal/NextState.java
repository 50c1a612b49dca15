package dev.harness4j.postgres.internal;

import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Outcome;
import dev.harness4j.core.queue.RetryPolicy;
import java.time.Duration;
import java.time.Instant;

/**
 * Where a queue entry goes after an attempt, as core's {@code RunQueue.finish} decides it: {@code
 * done} for a success, {@code interrupted} for a bail, {@code queued} again after the retry
 * policy's wait, else {@code failed}. A pure function.
 *
 * @param state the new state's wire name
 * @param reason the entry's reason, or {@code null}
 * @param delayMs the wait before the entry may run again (queued only), else {@code null}
 */
public record NextState(String state, String reason, Long delayMs) {

    /**
     * @param attempts the attempts made, this one included
     * @param maxAttempts the entry's attempt budget
     */
    public static NextState after(HarnessResult result, RetryPolicy retry, int attempts, int maxAttempts, Instant now) {
        Outcome outcome = result.outcome();
        String wire = outcome.wireName();
        if (outcome.isSuccess()) {
            return new NextState("done", result.reason(), null);
        }
        if (outcome == Outcome.BAILED) {
            return new NextState("interrupted", result.reason(), null);
        }
        RetryPolicy policy = retry.withMaxAttempts(maxAttempts);
        Instant again = policy.retryTime(outcome, attempts, result.retryAt(), now);
        if (again != null) {
            return new NextState("queued", "retry " + (attempts + 1) + "/" + maxAttempts + " after " + wire
                    + (result.reason() == null ? "" : ": " + result.reason()),
                    Math.max(0, Duration.between(now, again).toMillis()));
        }
        boolean retried = outcome.isRetryable() || (outcome == Outcome.TIMEOUT && policy.retryTimeouts());
        return new NextState("failed", retried ? "gave up after " + attempts + " attempts: "
                + (result.reason() == null ? "" : result.reason()) : result.reason(), null);
    }
}
