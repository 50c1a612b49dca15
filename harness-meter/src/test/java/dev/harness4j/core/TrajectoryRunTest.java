package dev.harness4j.core;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.api.CompletionMode;
import dev.harness4j.api.Execution;
import dev.harness4j.api.Harness;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.InstallInfo;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.Limits;
import dev.harness4j.api.ProviderResolver;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.RunSpec;
import dev.harness4j.api.Secret;
import dev.harness4j.api.TokenUsage;
import dev.harness4j.api.TrajectoryStep;
import dev.harness4j.meter.internal.Upstream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * trajectory.json from the wire: a harness that reports nothing structured ({@code curl} in a
 * shell) makes a two-tool-call exchange with a real upstream through the meter.
 */
class TrajectoryRunTest {
    private static final String KEY = "sk-trajectory-run-test-0077";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir Path tmp;
    private Path base;
    private Upstream upstream;
    private final AtomicInteger calls = new AtomicInteger();
    private final List<RunRecord> observed = new CopyOnWriteArrayList<>();

    @BeforeEach
    void setUp() throws Exception {
        base = GitFixture.repo(tmp.resolve("base"));
        upstream = new Upstream();
        upstream.on("/v1/messages", ex -> {
            switch (calls.incrementAndGet()) {
                case 1 -> Upstream.send(ex, 200, "text/event-stream", sse("tu_1", "Bash", "{\\\"command\\\":\\\"ls\\\"}"));
                case 2 -> Upstream.send(ex, 200, "application/json", "{\"model\":\"claude-haiku-4-5-20251001\","
                        + "\"content\":[{\"type\":\"text\",\"text\":\"Now write.\"},{\"type\":\"tool_use\",\"id\":\"tu_2\","
                        + "\"name\":\"Write\",\"input\":{\"file_path\":\"a.txt\",\"content\":\"a\"}}],"
                        + "\"usage\":{\"input_tokens\":200,\"output_tokens\":20,\"cache_read_input_tokens\":50,"
                        + "\"cache_creation_input_tokens\":0}}");
                default -> Upstream.send(ex, 200, "application/json", "{\"model\":\"claude-haiku-4-5-20251001\","
                        + "\"content\":[{\"type\":\"text\",\"text\":\"Done.\"}],"
                        + "\"usage\":{\"input_tokens\":300,\"output_tokens\":5,\"cache_read_input_tokens\":60,"
                        + "\"cache_creation_input_tokens\":0}}");
            }
        });
    }

    @AfterEach
    void tearDown() {
        upstream.close();
    }

    private static String sse(String id, String name, String args) {
        return "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"model\":\"claude-haiku-4-5-20251001\","
                + "\"usage\":{\"input_tokens\":100,\"cache_read_input_tokens\":0,\"cache_creation_input_tokens\":40,"
                + "\"output_tokens\":1}}}\n\n"
                + "data: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n"
                + "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Let me look.\"}}\n\n"
                + "data: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"tool_use\",\"id\":\"" + id
                + "\",\"name\":\"" + name + "\",\"input\":{}}}\n\n"
                + "data: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\""
                + args + "\"}}\n\n"
                + "data: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\"},\"usage\":{\"output_tokens\":10}}\n\n"
                + "data: {\"type\":\"message_stop\"}\n\n";
    }

    private HarnessRunner runner(boolean recordBodies) {
        ProviderResolver p = new ProviderResolver() {
            @Override
            public Optional<ResolvedProvider> resolve(String provider, String model) {
                return Optional.of(new ResolvedProvider("up", EnumSet.of(ApiStyle.ANTHROPIC), upstream.url(""),
                        Secret.of(KEY), AuthScheme.API_KEY, model));
            }

            @Override
            public Set<String> providerNames() {
                return Set.of("up");
            }
        };
        return HarnessRunner.builder().stateDir(tmp.resolve("state")).recordBodies(recordBodies)
                .registry(HarnessRegistry.builder().add(new MeteredRunTest.CurlHarness()).add(new BrokenEvents()).build())
                .installations(Installations.defaults()).providers(p)
                .observer(record -> {
                    assertThat(record.resultDir().resolve("trajectory.json")).as("written before observers hear").exists();
                    observed.add(record);
                }).build();
    }

    /** Three model calls: the prompt (with the key in it), then the results of tu_1 and tu_2. */
    private static final String SCRIPT = "post() { curl -s -o /dev/null -H \"x-api-key: $KEY\" "
            + "-H 'content-type: application/json' --data-binary \"$1\" \"$V1/messages\"; }\n"
            + "post '{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"list with '\"$KEY\"'\"}]}'\n"
            + "post '{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"list\"},{\"role\":\"assistant\","
            + "\"content\":\"x\"},{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"tu_1\","
            + "\"content\":\"README.md\"}]}]}'\n"
            + "post '{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"list\"},{\"role\":\"user\","
            + "\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"tu_2\",\"content\":[{\"type\":\"text\","
            + "\"text\":\"written\"}]}]}]}'\n";

    /** The curl harness with events that break after the first step: core falls back to the wire. */
    static final class BrokenEvents implements Harness {
        private final MeteredRunTest.CurlHarness curl = new MeteredRunTest.CurlHarness();
        @Override public String id() { return "curl-broken-events"; }
        @Override public CompletionMode completionMode() { return curl.completionMode(); }
        @Override public InstallInfo installInfo() { return curl.installInfo(); }
        @Override public Invocation prepare(HarnessContext ctx) { return curl.prepare(ctx); }
        @Override public HarnessResult interpret(Execution ex) { return curl.interpret(ex); }

        @Override
        public Optional<Stream<TrajectoryStep>> trajectory(Execution ex) {
            return Optional.of(Stream.of(1, 2).map(i -> {
                if (i == 2) {
                    throw new java.io.UncheckedIOException(new java.io.IOException("events cut off"));
                }
                return TrajectoryStep.agent("m", "from events");
            }));
        }
    }

    @Test
    void adapterEventsThatBreakMidWayGiveWayToTheWire() throws Exception {
        try (HarnessRunner runner = runner(true)) {
            RunRecord r = runner.run(RunSpec.builder("curl-broken-events", "up").model("m").prompt("SCRIPT:" + SCRIPT)
                    .baseline(base).limits(Limits.NONE.withMaxRuntime(Duration.ofMinutes(2))).build());
            JsonNode t = JSON.readTree(r.resultDir().resolve("trajectory.json").toFile());
            assertThat(t.path("extra").path("harness4j").path("trajectory_source").asText()).isEqualTo("wire-bodies");
            assertThat(t.path("steps")).hasSize(4);
            assertThat(t.toString()).doesNotContain("from events");
        }
    }

    private RunRecord run(HarnessRunner runner) {
        return runner.run(RunSpec.builder("curl-test", "up").model("m").prompt("SCRIPT:" + SCRIPT).baseline(base)
                .limits(Limits.NONE.withMaxRuntime(Duration.ofMinutes(2))).build());
    }

    @Test
    void aHarnessThatReportsNothingGetsItsStepsToolCallsAndObservationsFromTheRecordedBodies() throws Exception {
        try (HarnessRunner runner = runner(true)) {
            RunRecord r = run(runner);
            assertThat(calls.get()).isEqualTo(3);
            Path file = r.resultDir().resolve("trajectory.json");
            String text = Files.readString(file);
            assertThat(text).doesNotContain(KEY);
            JsonNode t = JSON.readTree(text);
            assertThat(t.path("schema_version").asText()).isEqualTo("ATIF-v1.7");
            assertThat(t.path("extra").path("harness4j").path("trajectory_source").asText()).isEqualTo("wire-bodies");
            JsonNode steps = t.path("steps");
            assertThat(steps).hasSize(4);
            assertThat(steps.get(0).path("source").asText()).isEqualTo("user");
            JsonNode s1 = steps.get(1);
            assertThat(s1.path("source").asText()).isEqualTo("agent");
            assertThat(s1.path("message").asText()).isEqualTo("Let me look.");
            assertThat(s1.path("model_name").asText()).isEqualTo("claude-haiku-4-5-20251001");
            assertThat(s1.path("tool_calls").get(0).path("function_name").asText()).isEqualTo("Bash");
            assertThat(s1.path("tool_calls").get(0).path("arguments").path("command").asText()).isEqualTo("ls");
            assertThat(s1.path("observation").path("results").get(0).path("source_call_id").asText()).isEqualTo("tu_1");
            assertThat(s1.path("observation").path("results").get(0).path("content").asText()).isEqualTo("README.md");
            assertThat(s1.path("metrics").path("prompt_tokens").asLong()).isEqualTo(140);
            assertThat(s1.path("metrics").path("completion_tokens").asLong()).isEqualTo(10);
            JsonNode s2 = steps.get(2);
            assertThat(s2.path("tool_calls").get(0).path("arguments").path("file_path").asText()).isEqualTo("a.txt");
            assertThat(s2.path("observation").path("results").get(0).path("content").asText()).isEqualTo("written");
            assertThat(s2.path("metrics").path("cached_tokens").asLong()).isEqualTo(50);
            assertThat(steps.get(3).path("message").asText()).isEqualTo("Done.");
            assertThat(steps.get(3).has("tool_calls")).isFalse();

            TokenUsage metered = r.result().tokens();
            assertThat(metered.source()).isEqualTo(TokenUsage.Source.METERED);
            JsonNode fm = t.path("final_metrics");
            assertThat(fm.path("total_prompt_tokens").asLong())
                    .isEqualTo(metered.input() + metered.cacheRead() + metered.cacheWrite()).isEqualTo(750);
            assertThat(fm.path("total_completion_tokens").asLong()).isEqualTo(metered.output()).isEqualTo(35);
            assertThat(fm.path("total_cached_tokens").asLong()).isEqualTo(metered.cacheRead());
            assertThat(fm.path("total_steps").asInt()).isEqualTo(4);

            assertThat(observed).containsExactly(r);
            Path bodies = r.resultDir().resolve("bodies");
            assertThat(bodies.resolve("000001.request")).exists();
            assertThat(Files.readString(bodies.resolve("000001.request"))).doesNotContain(KEY).contains("***");
        }
    }

    @Test
    void withoutBodiesEachModelCallIsAStepWithItsTokensAndNoText() throws Exception {
        try (HarnessRunner runner = runner(false)) {
            RunRecord r = run(runner);
            JsonNode t = JSON.readTree(r.resultDir().resolve("trajectory.json").toFile());
            assertThat(t.path("extra").path("harness4j").path("trajectory_source").asText()).isEqualTo("wire-requests");
            assertThat(t.path("steps")).hasSize(4);
            assertThat(t.path("steps").get(1).path("metrics").path("prompt_tokens").asLong()).isEqualTo(140);
            assertThat(t.path("steps").get(1).has("tool_calls")).isFalse();
            assertThat(t.path("notes").asText()).contains("recordBodies off");
            assertThat(r.resultDir().resolve("bodies")).doesNotExist();
        }
    }
}
