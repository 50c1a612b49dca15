package dev.harness4j.core;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.Limits;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.ProviderResolver;
import dev.harness4j.api.RunSpec;
import dev.harness4j.api.Termination;
import dev.harness4j.meter.internal.Upstream;
import dev.harness4j.core.process.RunMarker;
import dev.harness4j.core.stages.MeterStage;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real process that keeps retrying an endpoint that refuses its key, or fails, through the
 * meter: the first 401 stops it at once ({@code auth}, the whole tree gone), five failures in a
 * row stop it {@code transient}, another 4xx never stops it, and both stops can be turned off.
 */
class WireStopRunTest {
    private static final String KEY = "sk-wire-stop-test-0042";
    private static final String REFUSED = "{\"type\":\"error\",\"error\":{\"type\":\"authentication_error\","
            + "\"message\":\"invalid x-api-key\"}}";
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

    private void answerEveryRequest(int status) {
        upstream.on("/v1/chat/completions", ex -> {
            calls.incrementAndGet();
            Upstream.send(ex, status, "application/json", status == 401 ? REFUSED : "{\"error\":{\"message\":\"scripted\"}}");
        });
    }

    private HarnessRunner runner(MeterStage meter) {
        ProviderResolver p = MeteredRunTest.upstreamProvider(upstream, KEY);
        HarnessRunner.Builder b = HarnessRunner.builder().stateDir(tmp.resolve("state"))
                .registry(HarnessRegistry.builder().add(new MeteredRunTest.CurlHarness()).build())
                .installations(Installations.defaults()).providers(p);
        return (meter != null ? b.stage(meter) : b).build();
    }

    /** A harness that retries: {@code requests} calls, half a second apart, whatever they answer. */
    private RunRecord run(MeterStage meter, int requests) {
        String script = "i=0; while [ $i -lt " + requests + " ]; do curl -s -o /dev/null -H \"Authorization: Bearer $KEY\" "
                + "-H 'content-type: application/json' -d '{\"model\":\"m\"}' \"$V1/chat/completions\"; sleep 0.5; "
                + "i=$((i+1)); done";
        RunRecord r;
        try (HarnessRunner runner = runner(meter)) {
            r = runner.run(RunSpec.builder("curl-test", "up").model("m").prompt("SCRIPT:" + script).baseline(base)
                    .limits(LIMITS).build());
        }
        assertThat(RunMarker.find(r.runId())).as("processes left with the run's marker").isEmpty();
        return r;
    }

    @Test
    void theFirstRefusedKeyStopsARetryingHarnessAtOnceEndedAuth() throws Exception {
        answerEveryRequest(401);
        RunRecord r = run(null, 40); // 40 tries would take 20 s
        System.out.println("refused key: run took " + r.duration().toMillis() + " ms, " + calls.get() + " call(s)");

        assertThat(r.termination().kind()).as(r.result().reason()).isEqualTo(Termination.Kind.AUTH_REFUSED);
        assertThat(r.result().outcome()).isEqualTo(Outcome.AUTH);
        assertThat(calls.get()).as("stopped at the first 401, not after 40").isBetween(1, 2);
        assertThat(r.result().reason()).contains("stopped by harness4j at the first refused key",
                "HTTP 401 authentication_error").doesNotContain(KEY);
        JsonNode meta = new ObjectMapper().readTree(r.metaFile().toFile());
        assertThat(meta.path("termination").path("kind").asText()).isEqualTo("auth_refused");
        assertThat(meta.path("termination").path("reason").asText()).contains("stopped by harness4j", "stopOnAuthFailure");
        assertThat(meta.path("outcome").asText()).isEqualTo("auth");
    }

    @Test
    void fiveServerErrorsInARowStopTheRunTransient() throws Exception {
        answerEveryRequest(500);
        RunRecord r = run(null, 40);

        assertThat(r.termination().kind()).as(r.result().reason()).isEqualTo(Termination.Kind.ENDPOINT_FAILING);
        assertThat(r.result().outcome()).isEqualTo(Outcome.TRANSIENT);
        assertThat(calls.get()).isBetween(5, 6);
        assertThat(r.result().reason()).contains("after 5 failed model requests in a row", "the last: HTTP 500",
                "stopAfterServerErrors(5), the default");
        JsonNode meta = new ObjectMapper().readTree(r.metaFile().toFile());
        assertThat(meta.path("termination").path("kind").asText()).isEqualTo("endpoint_failing");
        assertThat(meta.path("outcome").asText()).isEqualTo("transient");
    }

    @Test
    void anUnreachableEndpointCountsAsAFailure() {
        upstream.close(); // nothing listens on its port any more
        RunRecord r = run(MeterStage.builder().stopAfterServerErrors(2).build(), 40);

        assertThat(r.termination().kind()).as(r.result().reason()).isEqualTo(Termination.Kind.ENDPOINT_FAILING);
        assertThat(r.result().reason()).contains("after 2 failed model requests in a row", "the last: unreachable",
                "stopAfterServerErrors(2))");
    }

    @Test
    void anotherClientErrorNeverStopsARun() {
        answerEveryRequest(404);
        RunRecord r = run(null, 6);

        assertThat(r.termination().kind()).as(r.result().reason()).isEqualTo(Termination.Kind.EXITED);
        assertThat(calls.get()).isEqualTo(6);
    }

    @Test
    void bothStopsCanBeTurnedOff() {
        answerEveryRequest(401);
        RunRecord r = run(MeterStage.builder().stopOnAuthFailure(false).build(), 3);
        assertThat(r.termination().kind()).as("never stopped").isEqualTo(Termination.Kind.EXITED);
        assertThat(calls.get()).isEqualTo(3);
        assertThat(r.result().outcome()).as("the wire's verdict on the last request").isEqualTo(Outcome.AUTH);

        calls.set(0);
        upstream.on("/v1/chat/completions", ex -> {
            calls.incrementAndGet();
            Upstream.send(ex, 503, "application/json", "{}");
        });
        r = run(MeterStage.builder().stopAfterServerErrors(0).build(), 7);
        assertThat(r.termination().kind()).isEqualTo(Termination.Kind.EXITED);
        assertThat(calls.get()).isEqualTo(7);
    }
}
