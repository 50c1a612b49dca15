package dev.harness4j.claude;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.api.Limits;
import dev.harness4j.api.Login;
import dev.harness4j.api.ProviderResolver;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.RunSpec;
import dev.harness4j.api.Secret;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.RunRecord;
import dev.harness4j.core.process.RunMarker;
import dev.harness4j.testkit.Clis;
import dev.harness4j.testkit.RealCli;
import dev.harness4j.testkit.model.RecordedRequest;
import dev.harness4j.testkit.model.Scenario;
import dev.harness4j.testkit.model.ScriptedModelServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real {@code claude} binary, run through {@link HarnessRunner} against the scripted model
 * server: what lands in {@code results/} for each kind of run. Each test scripts its own model id.
 */
@RealCli
class ClaudeCodeEndToEndTest {
    private static final String KEY = "sk-test-claude-e2e";
    private static final ObjectMapper JSON = new ObjectMapper();

    private static ScriptedModelServer server;
    private static Map<String, String> userClaudeFilesBefore;

    @TempDir Path tmp;
    private HarnessRunner runner;
    private Path baseline;

    @BeforeAll
    static void startServer() throws Exception {
        Clis.require(new ClaudeCodeHarness());
        userClaudeFilesBefore = UserClaudeFiles.checksums();
        server = ScriptedModelServer.start().requireKey(KEY);
    }

    @AfterAll
    static void stopServerAndCheckTheUsersClaudeFilesAreUntouched() throws Exception {
        if (server != null) {
            server.close();
        }
        if (userClaudeFilesBefore != null) {
            assertThat(UserClaudeFiles.checksums())
                    .as("~/.claude and ~/.claude.json after the runs (absent ones must stay absent)")
                    .isEqualTo(userClaudeFilesBefore);
        }
    }

    @BeforeEach
    void setUp() throws Exception {
        baseline = GitRepos.withReadme(tmp.resolve("baseline"));
        runner = HarnessRunner.builder().stateDir(tmp.resolve("state"))
                .providers(provider("scripted", KEY, AuthScheme.API_KEY),
                        provider("scripted-bearer", KEY, AuthScheme.BEARER),
                        provider("scripted-wrong-key", "sk-refused-key-e2e", AuthScheme.API_KEY))
                .build();
    }

    @AfterEach
    void tearDown() {
        runner.close();
    }

    private static ProviderResolver provider(String name, String key, AuthScheme auth) {
        return new ProviderResolver() {
            @Override
            public Optional<ResolvedProvider> resolve(String provider, String requestedModel) {
                return provider.equals(name)
                        ? Optional.of(new ResolvedProvider(name, EnumSet.of(ApiStyle.ANTHROPIC, ApiStyle.OPENAI),
                                server.baseUrl(), Secret.of(key), auth, requestedModel))
                        : Optional.empty();
            }

            @Override
            public Set<String> providerNames() {
                return Set.of(name);
            }
        };
    }

    private RunRecord run(String provider, String model, Limits limits) {
        RunRecord record = runner.run(RunSpec.builder(ClaudeCodeHarness.ID, provider).model(model)
                .prompt("Do the scripted task.").baseline(baseline).limits(limits)
                .option(ClaudeCodeHarness.OPTION_MAX_RETRIES, "0").build());
        assertThat(RunMarker.find(record.runId())).as("processes left with run %s's marker", record.runId())
                .isEmpty();
        return record;
    }

    private RunRecord run(String model) {
        return run("scripted", model, Limits.NONE.withMaxRuntime(Duration.ofMinutes(2)));
    }

    private static int modelCalls() {
        return (int) server.requests().stream().filter(r -> r.model() != null).count();
    }

    private static JsonNode meta(RunRecord record) throws Exception {
        String text = Files.readString(record.resultDir().resolve("meta.json"));
        assertThat(text).doesNotContain(KEY);
        return JSON.readTree(text);
    }

    @Test
    void aWriteFileRunIsCompletedWithExactlyTheScriptedChangeItsTokensAndAMatchingModel() throws Exception {
        server.script("e2e-write", Scenario.builder()
                .writeFile("hello.txt", "hello from claude\n").usage(100, 20, 30, 40)
                .say("Wrote hello.txt.").usage(110, 5, 0, 0).build());

        RunRecord record = run("e2e-write");

        JsonNode meta = meta(record);
        assertThat(meta.path("outcome").asText()).as(meta.toPrettyString()).isEqualTo("completed");
        assertThat(meta.path("changes").path("files")).extracting(JsonNode::asText).containsExactly("hello.txt");
        assertThat(meta.path("changes").path("insertions").asInt()).isEqualTo(1);
        assertThat(meta.path("changes").path("deletions").asInt()).isZero();
        String diff = Files.readString(record.resultDir().resolve("diff.patch"));
        assertThat(diff.split("diff --git", -1)).hasSize(2);
        assertThat(diff).contains("diff --git a/hello.txt b/hello.txt").contains("+hello from claude")
                .doesNotContain("claude-config").doesNotContain(".claude");
        JsonNode tokens = meta.path("tokens");
        assertThat(tokens.path("input").asLong()).isEqualTo(210);
        assertThat(tokens.path("output").asLong()).isEqualTo(25);
        assertThat(tokens.path("cache_read").asLong()).isEqualTo(30);
        assertThat(tokens.path("cache_write").asLong()).isEqualTo(40);
        assertThat(tokens.path("source").asText()).as("measured on the wire").isEqualTo("metered");
        JsonNode own = meta.path("adapter").path("tokens");
        assertThat(own.path("source").asText()).as("the adapter's own figures, kept beside").isEqualTo("adapter");
        assertThat(own.path("input").asLong()).isEqualTo(tokens.path("input").asLong());
        assertThat(own.path("output").asLong()).isEqualTo(tokens.path("output").asLong());
        assertThat(meta.path("cost").path("source").asText()).isEqualTo("cli_estimate");
        assertThat(meta.path("cost").path("note").asText()).contains("default model's rate");
        assertThat(meta.path("served_model").path("verdict").asText()).isEqualTo("match");
        assertThat(meta.path("served_model").path("answered")).extracting(JsonNode::asText)
                .containsExactly("e2e-write");
        assertThat(meta.path("summary").asText()).isEqualTo("Wrote hello.txt.");
        assertThat(Files.readString(record.resultDir().resolve("transcript.log"))).doesNotContain(KEY);
        assertThat(baseline.resolve("hello.txt")).doesNotExist();
        // from testkit's ClaudeCodeEndToEndTest, run once here: streamed Messages calls offering its tools
        assertThat(server.played("e2e-write")).isEqualTo(2);
        assertThat(server.requests(RecordedRequest.Kind.TURN)).filteredOn(t -> "e2e-write".equals(t.model()))
                .hasSize(2).allSatisfy(t -> {
                    assertThat(t.path()).isEqualTo("/v1/messages");
                    assertThat(t.stream()).isTrue();
                    assertThat(t.tools()).contains("Write", "Bash");
                    assertThat(t.authHeaders()).contains("x-api-key");
                    assertThat(t.toString()).doesNotContain(KEY);
                });
    }

    @Test
    void aRefusedKeyEndsTheRunAtTheFirst401ThoughClaudeWouldRetryItForMinutes() throws Exception {
        // claude's own retries are on (no max-retries option): alone it retried a 401 for 180 s
        int before = server.requests().size();
        RunRecord record = runner.run(RunSpec.builder(ClaudeCodeHarness.ID, "scripted-wrong-key").model("e2e-refused")
                .prompt("Do the scripted task.").baseline(baseline).limits(Limits.NONE.withMaxRuntime(Duration.ofMinutes(4)))
                .build());
        System.out.println("claude-code, refused key: ended " + record.result().outcome() + " in "
                + record.duration().toMillis() + " ms after " + (server.requests().size() - before) + " request(s)");

        assertThat(RunMarker.find(record.runId())).as("the whole tree is gone").isEmpty();
        JsonNode meta = meta(record);
        assertThat(meta.path("outcome").asText()).as(meta.toPrettyString()).isEqualTo("auth");
        assertThat(meta.path("termination").path("kind").asText()).isEqualTo("auth_refused");
        assertThat(meta.path("termination").path("reason").asText()).contains("stopped by harness4j at the first refused key");
        assertThat(server.requests().size() - before).as("no retries reached the endpoint").isLessThanOrEqualTo(3);
    }

    @Test
    void anotherAnsweringModelIsAMismatch() throws Exception {
        server.script("e2e-other", Scenario.builder().answerAs("claude-substitute-1").say("Hi.").build());

        JsonNode served = meta(run("e2e-other")).path("served_model");

        assertThat(served.path("verdict").asText()).isEqualTo("mismatch");
        assertThat(served.path("requested").asText()).isEqualTo("e2e-other");
        assertThat(served.path("answered")).extracting(JsonNode::asText).containsExactly("claude-substitute-1");
    }

    @Test
    void anAliasAnsweredByAFullIdOfItsFamilyIsAMatch() throws Exception {
        server.script("haiku", Scenario.builder().answerAs("claude-haiku-5-5").say("Hi.").build());

        JsonNode meta = meta(run("haiku"));

        assertThat(meta.path("outcome").asText()).isEqualTo("no-op");
        assertThat(meta.path("served_model").path("verdict").asText()).isEqualTo("match");
        assertThat(meta.path("served_model").path("answered")).extracting(JsonNode::asText)
                .containsExactly("claude-haiku-5-5");
    }

    @Test
    void aBearerProviderSendsTheKeyAsAuthorization() throws Exception {
        server.script("e2e-bearer", Scenario.builder().say("Hi.").build());

        JsonNode meta = meta(run("scripted-bearer", "e2e-bearer", Limits.NONE.withMaxRuntime(Duration.ofMinutes(2))));

        assertThat(meta.path("outcome").asText()).as(meta.toPrettyString()).isEqualTo("no-op");
        assertThat(server.requests()).filteredOn(r -> "e2e-bearer".equals(r.model())).isNotEmpty()
                .allSatisfy(r -> assertThat(r.authHeaders()).contains("authorization").doesNotContain("x-api-key"));
    }

    @Test
    void theLoginProbeSaysLoggedInWithTheRunsKeyAndNotLoggedInWithoutOne() throws Exception {
        ClaudeCodeHarness harness = new ClaudeCodeHarness();
        String claude = Clis.require(harness).toString();
        ResolvedProvider withKey = new ResolvedProvider("scripted", EnumSet.of(ApiStyle.ANTHROPIC),
                server.baseUrl(), Secret.of(KEY), AuthScheme.API_KEY, "m");
        int modelCallsBefore = modelCalls();

        Login in = LoginProbes.probe(harness, claude, withKey, tmp.resolve("probe-key"), baseline);
        Login out = LoginProbes.probe(harness, claude, new ResolvedProvider("scripted", EnumSet.of(ApiStyle.ANTHROPIC),
                server.baseUrl(), null, AuthScheme.API_KEY, "m"), tmp.resolve("probe-none"), baseline);

        assertThat(in.status()).isEqualTo(Login.Status.LOGGED_IN);
        assertThat(in.keySource()).isEqualTo("ANTHROPIC_API_KEY");
        assertThat(out.status()).isEqualTo(Login.Status.NOT_LOGGED_IN);
        assertThat(modelCalls()).as("model calls after the probes").isEqualTo(modelCallsBefore);
    }

    @Test
    void aContextLengthRefusalIsContextOverflow() throws Exception {
        server.script("e2e-context", Scenario.builder().failContextLength().build());

        JsonNode meta = meta(run("e2e-context"));

        assertThat(meta.path("outcome").asText()).as(meta.toPrettyString()).isEqualTo("context-overflow");
        assertThat(meta.path("reason").asText()).containsIgnoringCase("prompt is too long");
    }

    @Test
    void a429IsRateLimitedWithTheResetTimeFromRetryAfter() throws Exception {
        server.script("e2e-429", Scenario.builder().failRateLimited(Duration.ofSeconds(90)).build());
        Instant before = Instant.now().truncatedTo(ChronoUnit.SECONDS);

        RunRecord record = run("e2e-429");

        Instant after = Instant.now();
        JsonNode meta = meta(record);
        assertThat(meta.path("outcome").asText()).as(meta.toPrettyString()).isEqualTo("rate-limited");
        Instant retryAt = Instant.parse(meta.path("retry_at").asText());
        assertThat(retryAt).isBetween(before.plusSeconds(90), after.plusSeconds(91));
        // from examples' MeterEndToEndTest, run once here: the retry time is the 429's as the meter saw it
        JsonNode last = null;
        for (String line : Files.readAllLines(record.resultDir().resolve("requests.jsonl"))) {
            JsonNode r = JSON.readTree(line);
            if (r.path("status").asInt() == 429) {
                last = r;
            }
        }
        assertThat(last).as("a 429 in requests.jsonl").isNotNull();
        Instant sent = Instant.parse(last.path("at").asText());
        assertThat(retryAt).as("the 429's time %s plus its retry-after of 90 s", sent)
                .isBetween(sent.plusSeconds(89), sent.plusSeconds(92));
    }

    @Test
    void aServerErrorIsTransient() throws Exception {
        server.script("e2e-500", Scenario.builder().fail(500, "scripted internal error").build());

        JsonNode meta = meta(run("e2e-500"));

        assertThat(meta.path("outcome").asText()).as(meta.toPrettyString()).isEqualTo("transient");
        assertThat(meta.path("reason").asText()).contains("500");
        assertThat(meta.path("tokens").path("source").isNull()).as(meta.toPrettyString()).isTrue();
        assertThat(meta.path("cost").isNull()).isTrue();
    }

    @Test
    void aStalledModelIsStoppedByTheInactivityGuardLeavingNoProcess() throws Exception {
        // the guard's 15 s leave a loaded machine's claude time to start and reach the model before it goes silent
        server.script("e2e-stall", Scenario.builder().stall(Duration.ofSeconds(60)).build());
        Instant start = Instant.now();

        RunRecord record = run("scripted", "e2e-stall",
                Limits.NONE.withInactivityTimeout(Duration.ofSeconds(15)).withMaxRuntime(Duration.ofMinutes(2)));

        JsonNode meta = meta(record);
        assertThat(meta.path("outcome").asText()).as(meta.toPrettyString()).isEqualTo("timeout");
        assertThat(meta.path("termination").path("kind").asText()).isEqualTo("inactivity_timeout");
        assertThat(server.played("e2e-stall")).as("steps of the stalling scenario claude reached").isEqualTo(1);
        assertThat(Duration.between(start, Instant.now())).as("stopped before the stall ended")
                .isLessThan(Duration.ofSeconds(58));
        assertThat(RunMarker.find(record.runId())).isEmpty();
    }

    @Test
    void aProviderWithoutAnAnthropicStyleApiIsRefusedBeforeClaudeStarts() throws Exception {
        HarnessRunner openAiOnly = HarnessRunner.builder().stateDir(tmp.resolve("state2"))
                .providers(new ProviderResolver() {
                    @Override
                    public Optional<ResolvedProvider> resolve(String provider, String model) {
                        return Optional.of(new ResolvedProvider("openai-only", EnumSet.of(ApiStyle.OPENAI),
                                server.baseUrl(), Secret.of(KEY), AuthScheme.BEARER, model));
                    }

                    @Override
                    public Set<String> providerNames() {
                        return Set.of("openai-only");
                    }
                }).build();
        int requestsBefore = server.requests().size();
        try (openAiOnly) {
            RunRecord record = openAiOnly.run(RunSpec.builder(ClaudeCodeHarness.ID, "openai-only").model("gpt-x")
                    .prompt("p").baseline(baseline).build());

            JsonNode meta = meta(record);
            assertThat(meta.path("outcome").asText()).isEqualTo("error");
            assertThat(meta.path("stage").asText()).isEqualTo("prepare");
            assertThat(meta.path("reason").asText()).contains("ANTHROPIC").contains("openai-only");
            assertThat(meta.path("exit_code").isNull()).isTrue();
        }
        assertThat(server.requests()).hasSize(requestsBefore);
    }
}
