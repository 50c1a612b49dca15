package dev.harness4j.core.internal.meter;

import dev.harness4j.api.Harness;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Outcome;
import java.time.Instant;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Stops a metered run whose endpoint keeps answering rate-limited: once {@code limit} model
 * requests in a row end with HTTP 429, with no successful (2xx) model answer between, it asks
 * once for the run to be stopped, with a reason that says who stopped it and why. Other failures
 * (5xx, a dropped connection) neither count nor break the streak; a non-model request is ignored.
 * Only 429 counts: a 503 or 529 says the endpoint is overloaded, not that this caller is over its
 * quota, and a CLI's own retries are the right answer to that ({@code transient}).
 *
 * <p>The meter reports every finished request ({@link MeterRun.Hooks#requestEnded}); the
 * retry time is the one the last counted 429 carried ({@link RequestRecord#retryAt()}, read from
 * its {@code Retry-After} or reset headers). Thread-safe: requests end on their own threads.
 */
public final class RateLimitStop {
    /** Never stops. */
    public static final RateLimitStop NEVER = new RateLimitStop(0, "", reason -> { });

    private final int limit;
    private final String source;
    private final Consumer<String> stop;

    // guarded by this
    private int inARow;
    private Instant retryAt;
    private boolean retryAtFromHeader;
    private String reason;

    private RateLimitStop(int limit, String source, Consumer<String> stop) {
        this.limit = limit;
        this.source = source;
        this.stop = stop;
    }

    /**
     * The stop for one run: the runner's setting when there is one, else the harness's own
     * ({@link Harness#stopAfterRateLimits()}).
     *
     * @param runnerSetting the runner's {@code stopAfterRateLimits}, or {@code null} when unset
     * @param harness the run's adapter
     * @param stop told once, with the reason, when the run must stop
     * @return the stop; {@link #NEVER} when the limit is 0
     * @throws IllegalArgumentException when the adapter declares a negative limit
     */
    public static RateLimitStop of(Integer runnerSetting, Harness harness, Consumer<String> stop) {
        Objects.requireNonNull(harness, "harness");
        Objects.requireNonNull(stop, "stop");
        int limit = runnerSetting != null ? runnerSetting : harness.stopAfterRateLimits();
        if (limit < 0) {
            throw new IllegalArgumentException("adapter " + harness.id() + " declares stopAfterRateLimits() = " + limit
                    + "; it must be 0 (never stop) or more");
        }
        if (limit == 0) {
            return NEVER;
        }
        String source = runnerSetting != null ? "the runner's stopAfterRateLimits(" + limit + ")"
                : "the " + harness.id() + " adapter's stopAfterRateLimits() = " + limit;
        return new RateLimitStop(limit, source, stop);
    }

    /**
     * Counts a finished request; the request that completes the streak asks for the stop.
     *
     * @param r the request as the meter recorded it
     */
    public void ended(RequestRecord r) {
        if (limit == 0 || !r.modelRequest()) {
            return;
        }
        String stopWith = null;
        synchronized (this) {
            if (r.status() == 429) {
                inARow++;
                if (r.retryAt() != null) {
                    retryAt = r.retryAt();
                    retryAtFromHeader = r.retryAtFromHeader();
                }
                if (inARow >= limit && reason == null) {
                    reason = "stopped by harness4j after " + inARow
                            + (inARow == 1 ? " rate-limited answer" : " rate-limited answers in a row") + " (HTTP 429, no "
                            + "successful model answer between; " + source + ")"
                            + (retryAt != null ? "; the endpoint said to retry at " + retryAt : "");
                    stopWith = reason;
                }
            } else if (r.ok()) {
                inARow = 0;
                retryAt = null;
                retryAtFromHeader = false;
            }
        }
        if (stopWith != null) {
            stop.accept(stopWith); // the supervisor logs the stop with the run's id
        }
    }

    /**
     * Why this stop asked for the run to end, or {@code null} when it did not.
     *
     * @return the reason, or {@code null}
     */
    public synchronized String reason() {
        return reason;
    }

    /**
     * The result with the retry time of the 429s that stopped the run, when it ended
     * rate-limited without one or with one a header's time outranks (a request cancelled by the
     * stop may be the wire's last; the header is the most trusted source, see {@link WireTruth}).
     *
     * @param result the run's result so far
     * @return the result, with this stop's retry time when it knows one from a header, or knows
     *     one and the result had none
     */
    public synchronized HarnessResult settle(HarnessResult result) {
        if (reason == null || retryAt == null || result.outcome() != Outcome.RATE_LIMITED
                || (result.retryAt() != null && !retryAtFromHeader) || retryAt.equals(result.retryAt())) {
            return result;
        }
        return new HarnessResult(result.outcome(), result.reason(), result.tokens(), result.cost(), result.servedModel(),
                result.summary(), result.phaseReport(), retryAt);
    }
}
