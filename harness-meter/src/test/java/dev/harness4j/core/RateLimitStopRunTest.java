package dev.harness4j.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.CompletionMode;
import dev.harness4j.api.Execution;
import dev.harness4j.api.Harness;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.InstallInfo;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.Limits;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.ProviderResolver;
import dev.harness4j.api.RunSpec;
import dev.harness4j.api.Termination;
import dev.harness4j.meter.internal.Upstream;
import dev.harness4j.core.process.RunMarker;
import dev.harness4j.core.process.Sandbox;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real process that keeps calling an endpoint answering 429 (with {@code Retry-After}) through
 * the meter: the runner stops it after the configured number of 429s in a row and ends the run
 * {@code rate-limited} with the wire's retry time; a success between resets the count; 0 never stops.
 */
class RateLimitStopRunTest {
    private static final String KEY = "sk-rate-limit-stop-test-0042";
    private static final String CHAT_OK = "{\"model\":\"m\",\"usage\":{\"prompt_tokens\":10,\"completion_tokens\":1}}";
    private static final String LIMITED = "{\"error\":{\"type\":\"rate_limit_error\",\"message\":\"scripted 429\"}}";
    private static final Limits LIMITS = Limits.NONE.withMaxRuntime(Duration.ofMinutes(2));

    @TempDir Path tmp;
    private Path base;
    private Upstream upstream;
    private final AtomicInteger calls = new AtomicInteger();

    @BeforeEach
    void setUp() throws Exception {
        base = GitFixture.repo(tmp.resolve("base"));
        upstream = new Upstream();
    }

    @AfterEach
    void tearDown() {
        upstream.close();
    }

    /** The curl harness of {@link MeteredRunTest}, declaring a stop after {@code limit} 429s in a row. */
    static final class Declaring implements Harness {
        private final Harness curl = new MeteredRunTest.CurlHarness();
        private final int limit;

        Declaring(int limit) {
            this.limit = limit;
        }

        @Override public String id() { return curl.id(); }
        @Override public CompletionMode completionMode() { return curl.completionMode(); }
        @Override public InstallInfo installInfo() { return curl.installInfo(); }
        @Override public Invocation prepare(HarnessContext ctx) { return curl.prepare(ctx); }
        @Override public HarnessResult interpret(Execution ex) { return curl.interpret(ex); }
        @Override public int stopAfterRateLimits() { return limit; }
    }

    private HarnessRunner.Builder runner(Harness harness) {
        ProviderResolver p = MeteredRunTest.upstreamProvider(upstream, KEY);
        return HarnessRunner.builder().stateDir(tmp.resolve("state"))
                .registry(HarnessRegistry.builder().add(harness).build())
                .installations(Installations.defaults()).providers(p);
    }

    private RunRecord run(HarnessRunner runner, int requests) {
        String script = "i=0; while [ $i -lt " + requests + " ]; do curl -s -o /dev/null -H \"Authorization: Bearer $KEY\" "
                + "-H 'content-type: application/json' -d '{\"model\":\"m\"}' \"$V1/chat/completions\"; sleep 0.2; "
                + "i=$((i+1)); done";
        RunRecord r = runner.run(RunSpec.builder("curl-test", "up").model("m").prompt("SCRIPT:" + script)
                .baseline(base).limits(LIMITS).build());
        assertThat(RunMarker.find(r.runId())).as("processes left with the run's marker").isEmpty();
        return r;
    }

    /**
     * Answers 429 with {@code Retry-After: 30}, then 90 seconds each time after (a third 429 that
     * slips in while the stop kills the process says 90 too, so "the latest" stays 90).
     */
    private void rateLimitEveryRequest() {
        upstream.on("/v1/chat/completions", ex -> {
            int n = calls.incrementAndGet();
            ex.getResponseHeaders().set("retry-after", n == 1 ? "30" : "90");
            Upstream.send(ex, 429, "application/json", LIMITED);
        });
    }

    @Test
    void theAdaptersDeclaredLimitStopsTheRunRateLimitedWithTheLatestRetryAfterFromTheWire() throws Exception {
        rateLimitEveryRequest();
        Instant before = Instant.now();
        RunRecord r;
        try (HarnessRunner runner = runner(new Declaring(2)).build()) {
            r = run(runner, 40);
        }
        Instant after = Instant.now();

        assertThat(r.termination().kind()).as(r.result().reason()).isEqualTo(Termination.Kind.RATE_LIMITED);
        assertThat(r.result().outcome()).isEqualTo(Outcome.RATE_LIMITED);
        assertThat(r.result().reason()).contains("stopped by harness4j after 2 rate-limited answers in a row",
                "the curl-test adapter's stopAfterRateLimits() = 2");
        assertThat(calls.get()).as("stopped at the second 429, not after all 40").isBetween(2, 3);
        // the second (and any later) 429 said "retry-after: 90"; the first said 30
        assertThat(r.result().retryAt()).isBetween(before.plusSeconds(89), after.plusSeconds(91));
        JsonNode meta = new ObjectMapper().readTree(r.metaFile().toFile());
        assertThat(meta.path("termination").path("kind").asText()).isEqualTo("rate_limited");
        assertThat(meta.path("termination").path("reason").asText()).contains("stopped by harness4j");
        assertThat(meta.path("outcome").asText()).isEqualTo("rate-limited");
        assertThat(Instant.parse(meta.path("retry_at").asText())).isEqualTo(r.result().retryAt());
    }

    @Test
    void aSuccessfulAnswerBetweenRateLimitsResetsTheCount() throws Exception {
        upstream.on("/v1/chat/completions", ex -> {
            if (calls.incrementAndGet() % 2 == 1) {
                ex.getResponseHeaders().set("retry-after", "30");
                Upstream.send(ex, 429, "application/json", LIMITED);
            } else {
                Upstream.send(ex, 200, "application/json", CHAT_OK);
            }
        });
        RunRecord r;
        try (HarnessRunner runner = runner(new MeteredRunTest.CurlHarness()).stopAfterRateLimits(2).build()) {
            r = run(runner, 6);
        }

        assertThat(r.termination().kind()).as(r.result().reason()).isEqualTo(Termination.Kind.EXITED);
        assertThat(calls.get()).isEqualTo(6);
        assertThat(r.meter().modelRequests()).isEqualTo(6);
    }

    @Test
    void theRunnersSettingOverridesTheAdapters() throws Exception {
        rateLimitEveryRequest();
        try (HarnessRunner runner = runner(new Declaring(2)).stopAfterRateLimits(0).build()) {
            RunRecord r = run(runner, 4);
            assertThat(r.termination().kind()).as("0: never stopped").isEqualTo(Termination.Kind.EXITED);
            assertThat(calls.get()).isEqualTo(4);
            assertThat(r.result().outcome()).as("the wire's verdict on the last request").isEqualTo(Outcome.RATE_LIMITED);
        }
        calls.set(0);
        try (HarnessRunner runner = runner(new MeteredRunTest.CurlHarness()).stopAfterRateLimits(3).build()) {
            RunRecord r = run(runner, 40);
            assertThat(r.termination().kind()).isEqualTo(Termination.Kind.RATE_LIMITED);
            assertThat(r.result().reason()).contains("after 3 rate-limited answers", "the runner's stopAfterRateLimits(3)");
            assertThat(calls.get()).isBetween(3, 4);
        }
    }

    @Test
    void aNegativeLimitIsRefusedByTheBuilder() {
        assertThatThrownBy(() -> HarnessRunner.builder().stopAfterRateLimits(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("stopAfterRateLimits must be 0 (never stop a run) or more, was -1");
    }

    @Test
    void aLimitWithoutMeteringIsRefusedAtBuildAndZeroIsNot() {
        assertThatThrownBy(() -> HarnessRunner.builder().metering(false).stopAfterRateLimits(3).build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("stopAfterRateLimits(3) needs metering")
                .hasMessageContaining("remove metering(false) or set stopAfterRateLimits(0)");
        HarnessRunner.builder().stateDir(tmp.resolve("state")).metering(false).sandbox(Sandbox.OFF).stopAfterRateLimits(0)
                .build().close();
    }
}
