package dev.harness4j.examples;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.aider.AiderHarness;
import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.api.Limits;
import dev.harness4j.api.ProviderResolver;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.RunSpec;
import dev.harness4j.api.Secret;
import dev.harness4j.claude.ClaudeCodeHarness;
import dev.harness4j.core.HarnessRegistry;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.RunRecord;
import dev.harness4j.core.process.RunMarker;
import dev.harness4j.core.stages.MeterStage;
import dev.harness4j.opencode.OpencodeHarness;
import dev.harness4j.testkit.Clis;
import dev.harness4j.testkit.bench.ScriptedProvider;
import dev.harness4j.testkit.fake.FakeHarness;
import dev.harness4j.testkit.fake.FakeScript;
import dev.harness4j.testkit.model.RecordedRequest;
import dev.harness4j.testkit.model.Scenario;
import dev.harness4j.testkit.model.ScriptedModelServer;
import dev.harness4j.testkit.model.Usage;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The metering proxy with the real CLIs (claude-code, opencode, aider) against the scripted model
 * server, through {@link HarnessRunner} with metering on (the default): the tokens, cost, served
 * model and error class in {@code meta.json} come from the wire, the same way for every harness.
 * A scenario an adapter module already runs through the meter with the same CLI (Claude Code's
 * answering-model mismatch, its 429 with the wire's retry time) is not run again here.
 */
class MeterEndToEndTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Limits LIMITS = Limits.NONE.withMaxRuntime(Duration.ofMinutes(3));

    private static ScriptedModelServer server;

    @TempDir Path tmp;
    private HarnessRunner runner;
    private Path baseline;
    private int deadPort;

    @BeforeAll
    static void startServer() {
        Clis.require(new ClaudeCodeHarness());
        Clis.require(new OpencodeHarness());
        Clis.require(new AiderHarness());
        server = ScriptedModelServer.start().requireKey(ScriptedProvider.KEY);
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @BeforeEach
    void setUp() throws Exception {
        baseline = BenchMain.sampleRepo(tmp.resolve("baseline"));
        try (ServerSocket s = new ServerSocket(0)) {
            deadPort = s.getLocalPort();
        }
        runner = HarnessRunner.builder().stateDir(tmp.resolve("state"))
                .registry(HarnessRegistry.builder().loadServices().add(new FakeHarness()).build())
                .providers(new ScriptedProvider(server), deadEndpoint())
                .build();
    }

    @AfterEach
    void tearDown() {
        runner.close();
    }

    /** A provider whose endpoint nobody listens on. */
    private ProviderResolver deadEndpoint() {
        return new ProviderResolver() {
            @Override
            public Optional<ResolvedProvider> resolve(String provider, String model) {
                return provider.equals("dead") ? Optional.of(new ResolvedProvider("dead",
                        EnumSet.of(ApiStyle.ANTHROPIC, ApiStyle.OPENAI), URI.create("http://127.0.0.1:" + deadPort),
                        Secret.of(ScriptedProvider.KEY), AuthScheme.API_KEY, model)) : Optional.empty();
            }

            @Override
            public Set<String> providerNames() {
                return Set.of("dead");
            }
        };
    }

    private RunRecord run(String harness, String provider, String model, Limits limits) throws IOException {
        RunSpec.Builder spec = RunSpec.builder(harness, provider).model(model).prompt("Do the scripted task.")
                .baseline(baseline).limits(limits)
                .option(ClaudeCodeHarness.OPTION_MAX_RETRIES, "0");
        if (harness.equals(AiderHarness.ID)) {
            spec.option("stream", "false"); // aider's streamed requests ask for no usage: nothing on the wire to meter
        }
        RunRecord record = runner.run(spec.build());
        assertThat(RunMarker.find(record.runId())).as("processes left with run %s's marker", record.runId()).isEmpty();
        assertNoSecretIn(record.resultDir());
        return record;
    }

    /** No key, no auth header, not even their names, in any file the run wrote. */
    private static void assertNoSecretIn(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                String text = new String(Files.readAllBytes(f), StandardCharsets.UTF_8);
                assertThat(text).as(f.toString()).doesNotContain(ScriptedProvider.KEY);
                if (f.getFileName().toString().equals("requests.jsonl")) {
                    assertThat(text.toLowerCase(Locale.ROOT)).as(f.toString()).doesNotContain("authorization")
                            .doesNotContain("x-api-key");
                }
            }
        }
    }

    private static JsonNode meta(RunRecord r) throws IOException {
        return JSON.readTree(Files.readString(r.metaFile()));
    }

    private static List<JsonNode> requests(RunRecord r) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        for (String line : Files.readAllLines(r.resultDir().resolve("requests.jsonl"))) {
            out.add(JSON.readTree(line));
        }
        return out;
    }

    /** The usage the server sent for a model's answered calls: {input, output, cacheRead, cacheWrite}. */
    private static long[] sentUsage(String model) {
        long[] sum = new long[4];
        for (RecordedRequest r : server.requests()) {
            if (!model.equals(r.model()) || r.status() != 200 || r.kind() == RecordedRequest.Kind.OTHER) {
                continue;
            }
            Usage u = r.kind() == RecordedRequest.Kind.SIDE_REQUEST ? Usage.SIDE_REQUEST : r.step().usage();
            sum[0] += u.input();
            sum[1] += u.output();
            sum[2] += u.cacheRead();
            sum[3] += u.cacheWrite();
        }
        return sum;
    }

    @ParameterizedTest
    @ValueSource(strings = {"claude-code", "opencode", "aider"})
    void meteredTokensAreExactlyTheUsageTheServerSentAndArePriced(String harness) throws Exception {
        String model = "meter-tokens-" + harness;
        server.script(model, Scenario.builder()
                .writeFile("hello.txt", "hello\n").usage(1234, 56, 200, 100)
                .say("Wrote hello.txt.").usage(1300, 25, 0, 0).build());

        RunRecord record = run(harness, ScriptedProvider.NAME, model, LIMITS);

        JsonNode meta = meta(record);
        assertThat(meta.path("outcome").asText()).as(meta.toPrettyString()).isEqualTo("completed");
        long[] sent = sentUsage(model);
        assertThat(sent[0]).as("the server answered at least the first scripted turn").isGreaterThanOrEqualTo(1234);
        JsonNode tokens = meta.path("tokens");
        assertThat(tokens.path("source").asText()).isEqualTo("metered");
        long input;
        if (harness.equals("claude-code")) { // Anthropic: every figure on the wire
            input = sent[0];
            assertThat(tokens.path("cache_write").asLong()).isEqualTo(sent[3]);
        } else { // OpenAI: cache writes are inside the prompt tokens, and have no figure of their own
            input = sent[0] + sent[3];
            assertThat(tokens.path("cache_write").isNull()).as(tokens.toString()).isTrue();
        }
        assertThat(tokens.path("input").asLong()).as(tokens.toString()).isEqualTo(input);
        assertThat(tokens.path("output").asLong()).isEqualTo(sent[1]);
        assertThat(tokens.path("cache_read").asLong()).isEqualTo(sent[2]);
        assertThat(meta.path("meter").path("model_requests").asInt())
                .isEqualTo(meta.path("meter").path("measured_requests").asInt()).isPositive();
        assertThat(meta.path("adapter").path("tokens").isObject()).isTrue();
        BigDecimal expected = ScriptedProvider.PRICE.cost(record.result().tokens()).orElseThrow();
        assertThat(meta.path("cost").path("source").asText()).isEqualTo("metered_price");
        assertThat(meta.path("cost").path("usd").decimalValue()).isEqualByComparingTo(expected);
        assertThat(meta.path("served_model").path("verdict").asText()).isEqualTo("match");
        assertThat(requests(record)).anySatisfy(r -> assertThat(r.path("requested_model").asText()).isEqualTo(model));
    }

    /** Claude Code's mismatch runs once, in harness-claude's ClaudeCodeEndToEndTest.anotherAnsweringModelIsAMismatch. */
    @ParameterizedTest
    @ValueSource(strings = {"opencode", "aider"})
    void anotherAnsweringModelIsAMismatchFromTheWire(String harness) throws Exception {
        String model = "meter-swap-" + harness;
        server.script(model, Scenario.builder().answerAs("impostor-model-7b")
                .writeFile("hello.txt", "hello\n").say("Done.").build());

        RunRecord record = run(harness, ScriptedProvider.NAME, model, LIMITS);

        JsonNode served = meta(record).path("served_model");
        assertThat(served.path("verdict").asText()).as(served.toString()).isEqualTo("mismatch");
        assertThat(served.path("answered")).extracting(JsonNode::asText).contains("impostor-model-7b");
    }

    /** Claude Code through the meter: a connection dropped mid-answer is transient. */
    @Test
    void aClaudeConnectionDroppedMidAnswerIsTransient() throws Exception {
        String model = "meter-drop-claude";
        Scenario.Builder s = Scenario.builder();
        for (int i = 0; i < 8; i++) {
            s.dropConnection();
        }
        server.script(model, s.build());

        RunRecord record = run("claude-code", ScriptedProvider.NAME, model, LIMITS);

        JsonNode meta = meta(record);
        assertThat(meta.path("outcome").asText()).as(meta.toPrettyString()).isEqualTo("transient");
        assertThat(meta.path("changes").path("files")).isEmpty();
        assertThat(meta.path("tokens").path("input").isNull()).as("unmeasured, never 0").isTrue();
    }

    /**
     * opencode retries a failing endpoint silently (no output between attempts, waits doubling to
     * ~32 s). Its requests reach the meter, which tells the guard: an inactivity limit longer than
     * one wait but shorter than the whole retry sequence does not stop it, and the run ends
     * transient, not timeout. (With a limit below its longest wait, 35 s, it is stopped.) The meter's
     * stop after 5 failures in a row is off here: it would end the retries before the point is made.
     */
    @Test
    void opencodeRetryingSilentlyAgainst500sIsNotStoppedAsIdleAndEndsTransient() throws Exception {
        String model = "meter-500-opencode";
        Scenario.Builder s = Scenario.builder();
        for (int i = 0; i < 12; i++) {
            s.fail(500, "scripted internal error");
        }
        server.script(model, s.build());
        Duration idle = Duration.ofSeconds(45); // opencode 1.18 waits ~2, 4, 8, 16, 32 s between its six tries

        runner.close();
        runner = HarnessRunner.builder().stateDir(tmp.resolve("state")).providers(new ScriptedProvider(server))
                .stage(MeterStage.builder().stopAfterServerErrors(0).build()).build();
        RunRecord record = run("opencode", ScriptedProvider.NAME, model, LIMITS.withInactivityTimeout(idle));

        JsonNode meta = meta(record);
        List<JsonNode> failed = requests(record).stream().filter(r -> r.path("status").asInt() == 500).toList();
        assertThat(failed).as("requests %s; meta %s; transcript %s", requests(record), meta.toPrettyString(),
                Files.exists(record.resultDir().resolve("transcript.log"))
                        ? Files.readString(record.resultDir().resolve("transcript.log")) : "-").isNotEmpty();
        java.time.Instant first = java.time.Instant.parse(failed.get(0).path("at").asText());
        java.time.Instant lastTry = java.time.Instant.parse(failed.get(failed.size() - 1).path("at").asText());
        System.out.printf("opencode silent retries: %d requests answered 500 over %d s, at %s%n", failed.size(),
                Duration.between(first, lastTry).toSeconds(), failed.stream().map(r -> r.path("at").asText()).toList());
        assertThat(meta.path("outcome").asText()).as(meta.toPrettyString()).isEqualTo("transient");
        assertThat(meta.path("termination").path("kind").asText()).isEqualTo("exited");
        assertThat(Duration.between(first, lastTry)).as("the retries lasted longer than the inactivity limit")
                .isGreaterThan(idle);
    }

    @Test
    void aRunThatKeepsCallingTheModelIsStoppedAtItsTokenBudget() throws Exception {
        String model = "meter-budget";
        Scenario.Builder s = Scenario.builder().usage(1000, 10, 0, 0);
        for (int i = 0; i < 30; i++) {
            s.shell("echo step " + i + " >> steps.txt");
        }
        server.script(model, s.build());

        RunRecord record = run("claude-code", ScriptedProvider.NAME, model, LIMITS.withMaxTokens(3500L));

        JsonNode meta = meta(record);
        assertThat(meta.path("outcome").asText()).as(meta.toPrettyString()).isEqualTo("budget");
        assertThat(meta.path("reason").asText()).contains("max tokens 3500");
        assertThat(meta.path("termination").path("kind").asText()).isEqualTo("budget");
        assertThat(meta.path("meter").path("budget_passed").asText()).contains("max tokens 3500");
        assertThat(server.played(model)).as("the run was stopped long before its script ran out").isLessThan(10);
    }

    @Test
    void anUnreachableEndpointIsA502OnTheWireAndATransientRun() throws Exception {
        RunRecord record = run("claude-code", "dead", "meter-dead", LIMITS);

        JsonNode meta = meta(record);
        assertThat(meta.path("outcome").asText()).as(meta.toPrettyString()).isEqualTo("transient");
        assertThat(requests(record)).anySatisfy(r -> {
            assertThat(r.path("status").asInt()).isEqualTo(502);
            assertThat(r.path("upstream_error").asText()).startsWith("unreachable");
        });
        assertThat(meta.path("tokens").path("input").isNull()).as("unmeasured, never 0").isTrue();
        assertThat(meta.path("cost").isNull() || !meta.path("cost").path("source").asText().equals("metered_price"))
                .isTrue();
    }

    @Test
    void aHarnessThatIgnoresTheBaseUrlHasUnmeasuredTokensAndANote() throws Exception {
        RunSpec spec = FakeScript.builder().writeFile("a.txt", "a\n").build()
                .applyTo(RunSpec.builder(FakeHarness.ID, ScriptedProvider.NAME)).model("meter-tokens-claude-code")
                .prompt("write a").baseline(baseline).limits(LIMITS).build();
        server.script("meter-tokens-claude-code", Scenario.empty());

        RunRecord record = runner.run(spec);

        JsonNode meta = meta(record);
        assertThat(meta.path("tokens").path("input").isNull()).as(meta.toPrettyString()).isTrue();
        assertThat(meta.path("tokens").path("source").isNull()).isTrue();
        assertThat(meta.path("meter").path("model_requests").asInt()).isZero();
        assertThat(meta.path("notes")).extracting(JsonNode::asText)
                .anySatisfy(n -> assertThat(n).contains("no model request went through the meter"));
        assertNoSecretIn(record.resultDir());
    }
}
