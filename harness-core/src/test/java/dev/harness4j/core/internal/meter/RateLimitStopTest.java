package dev.harness4j.core.internal.meter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.harness4j.api.CompletionMode;
import dev.harness4j.api.Execution;
import dev.harness4j.api.Harness;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.InstallInfo;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.Outcome;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which finished requests count towards a rate-limit stop, and what the stop leaves in the result. */
class RateLimitStopTest {
    private static final Instant T = Instant.parse("2026-12-01T12:00:00Z");

    private final List<String> stops = new ArrayList<>();

    private static Harness declaring(int limit) {
        return new Harness() {
            @Override public String id() { return "declaring"; }
            @Override public CompletionMode completionMode() { return CompletionMode.OPAQUE; }
            @Override public InstallInfo installInfo() { return new InstallInfo("x", List.of(), "none"); }
            @Override public Invocation prepare(HarnessContext context) { throw new UnsupportedOperationException(); }
            @Override public HarnessResult interpret(Execution execution) { throw new UnsupportedOperationException(); }
            @Override public int stopAfterRateLimits() { return limit; }
        };
    }

    private static RequestRecord request(boolean model, int status, Instant retryAt) {
        return new RequestRecord(T, "POST", "/v1/chat/completions", status, 5, null, model, "m", null, status != 200,
                null, null, null, null, null, null, Map.of(), retryAt, retryAt != null, null, 10, 10);
    }

    @Test
    void onlyConsecutiveModel429sCountAndOnlyASuccessResetsTheStreak() {
        RateLimitStop stop = RateLimitStop.of(null, declaring(3), stops::add);

        stop.ended(request(true, 429, T.plusSeconds(10)));
        stop.ended(request(false, 429, null)); // not a model request
        stop.ended(request(true, 503, null)); // overloaded: neither counts nor resets
        stop.ended(request(true, 429, T.plusSeconds(20)));
        assertThat(stops).isEmpty();
        stop.ended(request(true, 429, T.plusSeconds(30)));
        stop.ended(request(true, 429, T.plusSeconds(40)));

        assertThat(stops).as("asked once").hasSize(1);
        assertThat(stops.get(0)).contains("after 3 rate-limited answers in a row", "the declaring adapter's",
                "retry at 2026-12-01T12:00:30Z");
        assertThat(stop.reason()).isEqualTo(stops.get(0));
    }

    @Test
    void aSuccessStartsTheCountAgain() {
        RateLimitStop stop = RateLimitStop.of(2, declaring(0), stops::add);
        stop.ended(request(true, 429, null));
        stop.ended(request(true, 200, null));
        stop.ended(request(true, 429, null));
        assertThat(stops).isEmpty();
        stop.ended(request(true, 429, null));
        assertThat(stops).singleElement().asString().contains("the runner's stopAfterRateLimits(2)")
                .doesNotContain("retry at");
    }

    @Test
    void zeroNeverStopsAndANegativeAdapterLimitIsRefused() {
        assertThat(RateLimitStop.of(null, declaring(0), stops::add)).isSameAs(RateLimitStop.NEVER);
        assertThat(RateLimitStop.of(0, declaring(5), stops::add)).isSameAs(RateLimitStop.NEVER);
        assertThatThrownBy(() -> RateLimitStop.of(null, declaring(-1), stops::add))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("adapter declaring");
    }

    @Test
    void settleGivesARateLimitedResultWithoutARetryTimeTheStreaksLatest() {
        RateLimitStop stop = RateLimitStop.of(1, declaring(0), stops::add);
        HarnessResult limited = HarnessResult.builder(Outcome.RATE_LIMITED, "m").reason("stopped").build();
        assertThat(stop.settle(limited)).as("not stopped yet").isSameAs(limited);

        stop.ended(request(true, 429, T.plusSeconds(60)));

        assertThat(stop.settle(limited).retryAt()).isEqualTo(T.plusSeconds(60));
        HarnessResult own = limited.withOutcome(Outcome.RATE_LIMITED, "own");
        HarnessResult timeout = HarnessResult.builder(Outcome.TIMEOUT, "m").build();
        assertThat(stop.settle(timeout)).isSameAs(timeout);
        assertThat(stop.settle(own).retryAt()).isEqualTo(T.plusSeconds(60));
    }
}
