package dev.harness4j.qwen;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.api.Limits;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.RunSpec;
import dev.harness4j.api.Secret;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.process.Sandbox;
import dev.harness4j.testkit.OfflineHome;
import dev.harness4j.testkit.CapturedRun;
import dev.harness4j.testkit.Clis;
import dev.harness4j.testkit.GitRepos;
import dev.harness4j.testkit.RealCli;
import dev.harness4j.testkit.model.Scenario;
import dev.harness4j.testkit.model.ScriptedModelServer;

import java.nio.file.Files;
import java.nio.file.Path;

import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real {@code qwen} CLI through {@link HarnessRunner} against the scripted model server's
 * chat completions API, for what the contract kit ({@link QwenContractTest}) does not cover: the
 * file written and left uncommitted, tokens and the answering model as they land in {@code
 * meta.json}, a rate limit stopped at the second 429 by the runner and ended with the wire's
 * retry time, a dropped connection classified, and a fake HOME left untouched. Each run's raw
 * stdout and stderr are written to {@code target/qwen-captures/}; the fixtures under {@code
 * src/test/resources/captured} were copied from there.
 */
@RealCli
class QwenEndToEndTest {
    private static final String KEY = "sk-qwen-e2e-secret";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path CAPTURES = Path.of("target", "qwen-captures");
    private static final Limits LIMITS = new Limits(Duration.ofSeconds(120), Duration.ofSeconds(240), null);
    private static final String PROMPT = "Do the \"scripted\" task:\n  write hello.txt — and nothing else.";

    private static ScriptedModelServer server;

    @TempDir
    Path tmp;

    private Path baseline;
    private Path home;
    private Path stateDir;

    @BeforeAll
    static void startServer() {
        server = ScriptedModelServer.start().requireKey(KEY);
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @BeforeEach
    void setUp() throws Exception {
        Clis.require(new QwenHarness());
        baseline = GitRepos.withReadme(tmp.resolve("baseline"));
        home = tmp.resolve("home");
        // a user's own Qwen settings and .env, npm and cache dirs: none may be read or written by a run
        GitRepos.write(home, ".qwen/settings.json", "{\"model\": {\"name\": \"not-the-run-model\"}}\n");
        GitRepos.write(home, ".env", "OPENAI_BASE_URL=http://127.0.0.1:9/v1\nOPENAI_MODEL=not-the-run-model\n");
        GitRepos.write(home, ".npm/_cacache/index", "user npm cache\n");
        GitRepos.write(home, ".cache/user.txt", "user cache\n");
        stateDir = Path.of("target", "qwen-e2e", UUID.randomUUID().toString()).toAbsolutePath();
    }

    @Test
    void shellScenarioLeavesTheFileUncommittedWithTheScriptedTokensAndTheAnsweringModel() throws Exception {
        String model = "qwen-write";
        server.script(model, Scenario.builder()
                .shell("printf 'hello from qwen\\n' > hello.txt").usage(100, 20, 30, 0)
                .say("Wrote hello.txt.").usage(110, 5, 0, 0)
                .build());
        Map<String, String> homeBefore = OfflineHome.snapshot(home);
        Map<String, String> baselineBefore = GitRepos.fingerprint(baseline);

        // unconfined, so the CLI sees the fake HOME (the sandbox would give it an empty one of its own)
        CapturedRun run = run(model, provider(model), Sandbox.OFF);

        assertThat(run.meta().path("outcome").asText()).as(run.describe()).isEqualTo("completed");
        assertThat(run.meta().path("changes").path("files")).extracting(JsonNode::asText).containsExactly("hello.txt");
        assertThat(run.meta().path("changes").path("dirty").asBoolean()).as("qwen leaves its change uncommitted").isTrue();
        assertThat(run.patch()).contains("+hello from qwen");
        JsonNode tokens = run.meta().path("tokens");
        assertThat(tokens.path("input").asLong()).as(tokens.toString()).isEqualTo(100 + 110);
        assertThat(tokens.path("output").asLong()).isEqualTo(20 + 5);
        assertThat(tokens.path("cache_read").asLong()).isEqualTo(30);
        assertThat(tokens.path("source").asText()).as("measured on the wire").isEqualTo("metered");
        JsonNode own = run.meta().path("adapter").path("tokens");
        assertThat(own.path("source").asText()).as("the adapter's own figures, kept beside").isEqualTo("adapter");
        assertThat(own.path("input").asLong()).isEqualTo(tokens.path("input").asLong());
        assertThat(own.path("output").asLong()).isEqualTo(tokens.path("output").asLong());
        assertThat(own.path("cache_read").asLong()).isEqualTo(tokens.path("cache_read").asLong());
        assertThat(run.meta().path("cost").isNull()).as("qwen prints no cost").isTrue();
        assertThat(run.meta().path("served_model").path("answered")).extracting(JsonNode::asText).containsExactly(model);
        assertThat(run.meta().path("served_model").path("verdict").asText()).isEqualTo("match");
        assertThat(run.meta().path("summary").asText()).isEqualTo("Wrote hello.txt.");
        // the requested model went to the endpoint on every request, and the prompt arrived intact
        assertThat(run.requests()).as("two turns, no side requests").hasSize(2).allSatisfy(r -> {
            assertThat(r.model()).isEqualTo(model);
            assertThat(r.path()).isEqualTo("/v1/chat/completions");
        });
        String escapedPrompt = JSON.writeValueAsString(PROMPT);
        assertThat(run.requests().get(0).body()).contains(escapedPrompt.substring(1, escapedPrompt.length() - 1));
        assertThat(OfflineHome.snapshot(home)).as("the fake HOME, .qwen, .env, .npm and .cache included").isEqualTo(homeBefore);
        assertThat(GitRepos.fingerprint(baseline)).as("the baseline").isEqualTo(baselineBefore);
        for (String f : List.of("transcript.log", "events.jsonl", "meta.json")) {
            assertThat(Files.readString(run.record().resultDir().resolve(f))).as(f).doesNotContain(KEY);
        }
    }

    @Test
    void answeringModelOtherThanTheRequestedOneIsAMismatch() throws Exception {
        String model = "qwen-swap";
        server.script(model, Scenario.builder().say("Nothing to do.").usage(40, 4, 0, 0).answerAs("qwen-other").build());

        CapturedRun run = run(model, provider(model));

        assertThat(run.meta().path("outcome").asText()).as(run.describe()).isEqualTo("no-op");
        assertThat(run.meta().path("served_model").path("answered")).extracting(JsonNode::asText)
                .containsExactly("qwen-other");
        assertThat(run.meta().path("served_model").path("verdict").asText()).isEqualTo("mismatch");
        assertThat(run.meta().path("tokens").path("input").asLong()).isEqualTo(40);
    }

    @Test
    void rateLimitedEndpointIsStoppedAtTheFourth429AndEndsRateLimitedWithTheWiresRetryTime() throws Exception {
        String model = "qwen-429";
        Scenario.Builder s = Scenario.builder();
        // qwen's SDK tries four times within seconds, then qwen waits max(60 s, retry-after) before each of
        // ten more rounds; the runner stops it at the fourth 429, before the first wait
        for (int i = 0; i < 8; i++) {
            s.failRateLimited(Duration.ofSeconds(90));
        }
        server.script(model, s.build());
        Instant started = Instant.now();

        CapturedRun run = run(model, provider(model));

        assertThat(run.meta().path("outcome").asText()).as(run.describe()).isEqualTo("rate-limited");
        assertThat(run.meta().path("termination").path("kind").asText()).isEqualTo("rate_limited");
        assertThat(run.meta().path("reason").asText()).contains("stopped by harness4j after 4 rate-limited answers",
                "the qwen-code adapter's stopAfterRateLimits() = 4");
        assertThat(run.requests()).as("stopped at the fourth 429, before qwen's first long wait").hasSize(4);
        assertThat(run.meta().path("retry_at").isTextual()).as(run.describe()).isTrue();
        assertThat(Instant.parse(run.meta().path("retry_at").asText())).as("the wire's retry-after: 90")
                .isAfter(started.plusSeconds(89));
        assertThat(run.meta().path("tokens").path("source").isNull()).as("no answer, nothing billed").isTrue();
    }

    @Test
    void droppedConnectionEndsTransient() throws Exception {
        String model = "qwen-drop";
        Scenario.Builder s = Scenario.builder();
        for (int i = 0; i < 30; i++) { // qwen retries a broken stream a few times before giving up
            s.dropConnection();
        }
        server.script(model, s.build());

        CapturedRun run = run(model, provider(model));

        assertThat(run.meta().path("outcome").asText()).as(run.describe()).isEqualTo("transient");
        assertThat(run.meta().path("retry_at").isNull()).isTrue();
        assertThat(run.meta().path("adapter").path("outcome").asText()).as("the envelope's error, read by the adapter")
                .isEqualTo("transient");
    }

    private ResolvedProvider provider(String model) {
        return new ResolvedProvider("scripted", EnumSet.of(ApiStyle.OPENAI), server.baseUrl(), Secret.of(KEY),
                AuthScheme.BEARER, model);
    }

    private CapturedRun run(String model, ResolvedProvider provider) throws Exception {
        return run(model, provider, Sandbox.AUTO);
    }

    private CapturedRun run(String model, ResolvedProvider provider, Sandbox sandbox) throws Exception {
        return CapturedRun.with(new QwenHarness(), server).stateDir(stateDir).home(home).sandbox(sandbox).captures(CAPTURES)
                .run(provider, RunSpec.builder(QwenHarness.ID, provider.name())
                        .model(model).prompt(PROMPT).baseline(baseline).limits(LIMITS).build());
    }

}
