package dev.harness4j.meter.internal;

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
import dev.harness4j.api.Termination;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which finished requests count towards the wire stops (429s, refused keys, failures), and what a stop leaves. */
class WireStopTest {
    private static final Instant T = Instant.parse("2026-12-01T12:00:00Z");

    private final List<Termination> stops = new ArrayList<>();

    private static Harness declaring(int limit) {
        return declaring(limit, 0);
    }

    private static Harness declaring(int limit, int endpointFailures) {
        return new Harness() {
            @Override public String id() { return "declaring"; }
            @Override public CompletionMode completionMode() { return CompletionMode.OPAQUE; }
            @Override public InstallInfo installInfo() { return new InstallInfo("x", List.of(), "none"); }
            @Override public Invocation prepare(HarnessContext context) { throw new UnsupportedOperationException(); }
            @Override public HarnessResult interpret(Execution execution) { throw new UnsupportedOperationException(); }
            @Override public int stopAfterRateLimits() { return limit; }
            @Override public int stopAfterEndpointFailures() { return endpointFailures; }
        };
    }

    private static RequestRecord request(boolean model, int status, Instant retryAt) {
        return request(model, status, retryAt, null);
    }

    private static RequestRecord request(boolean model, int status, Instant retryAt, String upstreamError) {
        return new RequestRecord(T, "POST", "/v1/chat/completions", status, 5, null, model, "m", null, status != 200,
                null, null, null, null, status == 401 ? "authentication_error" : null, null, Map.of(), retryAt,
                retryAt != null, upstreamError, 10, 10);
    }

    @Test
    void onlyConsecutiveModel429sCountAndOnlyASuccessResetsTheStreak() {
        WireStop stop = WireStop.of(new WireStop.Rules(null, true, null), declaring(3), stops::add);

        stop.ended(request(true, 429, T.plusSeconds(10)));
        stop.ended(request(false, 429, null)); // not a model request
        stop.ended(request(true, 503, null)); // overloaded: neither counts nor resets
        stop.ended(request(true, 429, T.plusSeconds(20)));
        assertThat(stops).isEmpty();
        stop.ended(request(true, 429, T.plusSeconds(30)));
        stop.ended(request(true, 429, T.plusSeconds(40)));

        assertThat(stops).as("asked once").hasSize(1);
        assertThat(stops.get(0).kind()).isEqualTo(Termination.Kind.RATE_LIMITED);
        assertThat(stops.get(0).reason()).contains("after 3 rate-limited answers in a row", "the declaring adapter's",
                "retry at 2026-12-01T12:00:30Z");
        assertThat(stop.stoppedWith()).isEqualTo(stops.get(0));
    }

    @Test
    void aSuccessStartsTheCountAgain() {
        WireStop stop = WireStop.of(new WireStop.Rules(2, true, null), declaring(0), stops::add);
        stop.ended(request(true, 429, null));
        stop.ended(request(true, 200, null));
        stop.ended(request(true, 429, null));
        assertThat(stops).isEmpty();
        stop.ended(request(true, 429, null));
        assertThat(stops).singleElement().extracting(Termination::reason).asString().contains("the runner's stopAfterRateLimits(2)")
                .doesNotContain("retry at");
    }

    @Test
    void zeroNeverStopsAndANegativeAdapterLimitIsRefused() {
        WireStop never = WireStop.of(new WireStop.Rules(0, false, 0), declaring(5), stops::add);
        for (int i = 0; i < 20; i++) {
            never.ended(request(true, 429, null));
            never.ended(request(true, 401, null));
            never.ended(request(true, 500, null));
        }
        assertThat(stops).isEmpty();
        WireStop adapterZero = WireStop.of(WireStop.Rules.DEFAULTS, declaring(0), stops::add);
        for (int i = 0; i < 20; i++) {
            adapterZero.ended(request(true, 429, null));
        }
        assertThat(stops).as("the adapter's 0 never stops on 429s").isEmpty();
        assertThatThrownBy(() -> WireStop.of(new WireStop.Rules(null, true, null), declaring(-1), stops::add))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("adapter declaring");
    }

    @Test
    void settleGivesARateLimitedResultWithoutARetryTimeTheStreaksLatest() {
        WireStop stop = WireStop.of(new WireStop.Rules(1, true, null), declaring(0), stops::add);
        HarnessResult limited = HarnessResult.builder(Outcome.RATE_LIMITED, "m").reason("stopped").build();
        assertThat(stop.settle(limited)).as("not stopped yet").isSameAs(limited);

        stop.ended(request(true, 429, T.plusSeconds(60)));

        assertThat(stop.settle(limited).retryAt()).isEqualTo(T.plusSeconds(60));
        HarnessResult own = limited.withOutcome(Outcome.RATE_LIMITED, "own");
        HarnessResult timeout = HarnessResult.builder(Outcome.TIMEOUT, "m").build();
        assertThat(stop.settle(timeout)).isSameAs(timeout);
        assertThat(stop.settle(own).retryAt()).isEqualTo(T.plusSeconds(60));
    }

    @Test
    void theFirstRefusedKeyStopsAtOnceAndNoOtherClientErrorDoes() {
        WireStop stop = WireStop.of(WireStop.Rules.DEFAULTS, declaring(0), stops::add);
        for (int status : new int[] {400, 404, 408, 409, 413, 422}) {
            for (int i = 0; i < 10; i++) {
                stop.ended(request(true, status, null));
            }
        }
        stop.ended(request(false, 401, null)); // not a model request
        assertThat(stops).as("a 4xx that is not 401/403 never stops").isEmpty();

        stop.ended(request(true, 401, null));
        stop.ended(request(true, 403, null));

        assertThat(stops).as("asked once").singleElement().satisfies(t -> {
            assertThat(t.kind()).isEqualTo(Termination.Kind.AUTH_REFUSED);
            assertThat(t.reason()).contains("stopped by harness4j at the first refused key", "HTTP 401 authentication_error",
                    "POST /v1/chat/completions", "stopOnAuthFailure");
        });
        assertThat(stop.stoppedWith()).isEqualTo(stops.get(0));
    }

    @Test
    void googlesFourHundredForAKeyItDoesNotKnowIsARefusedKeyToo() {
        WireStop stop = WireStop.of(WireStop.Rules.DEFAULTS, declaring(0), stops::add);
        stop.ended(new RequestRecord(T, "POST", "/v1beta/models/m:generateContent", 400, 5, null, true, "m", null, false,
                null, null, null, null, "INVALID_ARGUMENT", "API key not valid. Please pass a valid API key.", Map.of(),
                null, false, null, 10, 10));

        assertThat(stops).singleElement().satisfies(t -> {
            assertThat(t.kind()).isEqualTo(Termination.Kind.AUTH_REFUSED);
            assertThat(t.reason()).as("the endpoint's own words").contains("HTTP 400 INVALID_ARGUMENT",
                    "(\"API key not valid. Please pass a valid API key.\")");
        });
    }

    @Test
    void aForbiddenAnswerStopsTooAndTheStopCanBeTurnedOff() {
        WireStop stop = WireStop.of(WireStop.Rules.DEFAULTS, declaring(0), stops::add);
        stop.ended(request(true, 403, null));
        assertThat(stops).singleElement().extracting(Termination::kind).isEqualTo(Termination.Kind.AUTH_REFUSED);

        stops.clear();
        WireStop off = WireStop.of(new WireStop.Rules(null, false, null), declaring(0), stops::add);
        off.ended(request(true, 401, null));
        off.ended(request(true, 403, null));
        assertThat(stops).isEmpty();
    }

    @Test
    void failuresInARowStopTheRunTransientAndOnlyASuccessResetsThem() {
        WireStop stop = WireStop.of(WireStop.Rules.DEFAULTS, declaring(0), stops::add);
        stop.ended(request(true, 500, null));
        stop.ended(request(true, 502, null, "unreachable: ConnectException to upstream.example"));
        stop.ended(request(true, 429, null)); // neither counts nor resets
        stop.ended(request(true, 400, null)); // neither counts nor resets
        stop.ended(request(true, 503, null, "refused: passed max model requests 3")); // the meter's own refusal
        stop.ended(request(true, 200, null, "client-disconnected")); // the CLI hung up
        stop.ended(request(true, 529, null));
        stop.ended(request(false, 500, null)); // not a model request
        stop.ended(request(true, 200, null));
        assertThat(stops).as("reset by the success").isEmpty();

        stop.ended(request(true, 500, null));
        stop.ended(request(true, 503, null));
        stop.ended(request(true, 200, null, "reset: the upstream stream broke (IOException)"));
        stop.ended(request(true, -1, null, "timeout: no answer within 600 s"));
        assertThat(stops).isEmpty();
        stop.ended(request(true, 502, null, "unreachable: ConnectException to upstream.example"));

        assertThat(stops).singleElement().satisfies(t -> {
            assertThat(t.kind()).isEqualTo(Termination.Kind.ENDPOINT_FAILING);
            assertThat(t.reason()).contains("stopped by harness4j after 5 failed model requests in a row",
                    "the last: unreachable;", "stopAfterServerErrors(5), the default").doesNotContain("upstream.example");
        });
    }

    @Test
    void theServerErrorLimitIsSettableAndZeroNeverStops() {
        WireStop two = WireStop.of(new WireStop.Rules(null, true, 2), declaring(0), stops::add);
        two.ended(request(true, 500, null));
        assertThat(stops).isEmpty();
        two.ended(request(true, 500, null));
        assertThat(stops).singleElement().extracting(Termination::reason).asString()
                .contains("after 2 failed model requests in a row", "the last: HTTP 500", "stopAfterServerErrors(2))");
        stops.clear();
        WireStop zero = WireStop.of(new WireStop.Rules(null, true, 0), declaring(0), stops::add);
        for (int i = 0; i < 50; i++) {
            zero.ended(request(true, 500, null));
        }
        assertThat(stops).isEmpty();
    }

    @Test
    void onlyTheFirstStopIsAskedForAndSettleLeavesOtherStopsAlone() {
        WireStop stop = WireStop.of(new WireStop.Rules(1, true, 1), declaring(0), stops::add);
        stop.ended(request(true, 500, null));
        stop.ended(request(true, 429, T.plusSeconds(60)));
        stop.ended(request(true, 401, null));
        assertThat(stops).extracting(Termination::kind).containsExactly(Termination.Kind.ENDPOINT_FAILING);
        HarnessResult limited = HarnessResult.builder(Outcome.RATE_LIMITED, "m").reason("own").build();
        assertThat(stop.settle(limited)).as("not stopped rate-limited").isSameAs(limited);
    }

    @Test
    void anAdaptersOwnEndpointFailureLimitAppliesUnlessTheRunnerSetsOne() {
        WireStop own = WireStop.of(WireStop.Rules.DEFAULTS, declaring(0, 1), stops::add);
        own.ended(request(true, 200, null, "reset: the upstream stream broke (IOException)"));
        assertThat(stops).singleElement().satisfies(t -> {
            assertThat(t.kind()).isEqualTo(Termination.Kind.ENDPOINT_FAILING);
            assertThat(t.reason()).contains("after 1 failed model request (",
                    "the declaring adapter's stopAfterEndpointFailures() = 1");
        });
        stops.clear();
        WireStop runners = WireStop.of(new WireStop.Rules(null, true, 3), declaring(0, 1), stops::add);
        runners.ended(request(true, 500, null));
        runners.ended(request(true, 500, null));
        assertThat(stops).as("the runner's 3 over the adapter's 1").isEmpty();
        assertThatThrownBy(() -> WireStop.of(WireStop.Rules.DEFAULTS, declaring(0, -1), stops::add))
                .hasMessageContaining("stopAfterEndpointFailures() = -1");
    }
}
