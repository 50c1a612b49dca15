package dev.harness4j.codex;

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
 * The real {@code codex} binary through {@link HarnessRunner} against the scripted model server's
 * Responses API: a file written, tokens and the answering model as they land in {@code
 * meta.json}, a rate limit and a dropped connection classified, and a fake HOME left untouched.
 *
 * <p>The state dir lives under {@code target/} rather than {@code /tmp}: Codex refuses to create
 * its helper links below {@code /tmp}, and the default state dir ({@code ~/.harness4j}) is not
 * there either. Each run's raw stdout and stderr are written to {@code target/codex-captures/};
 * the fixtures under {@code src/test/resources/captured} were copied from there.
 */
@RealCli
class CodexEndToEndTest {
    private static final String KEY = "sk-codex-e2e-secret";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path CAPTURES = Path.of("target", "codex-captures");
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
        Clis.require(new CodexHarness());
        baseline = GitRepos.withReadme(tmp.resolve("baseline"));
        home = tmp.resolve("home");
        // a user's own Codex config, npm and cache dirs: none may be read or written by a run
        GitRepos.write(home, ".codex/config.toml", "model_provider = \"nowhere\"\nmodel = \"not-the-run-model\"\n");
        GitRepos.write(home, ".npm/_cacache/index", "user npm cache\n");
        GitRepos.write(home, ".cache/user.txt", "user cache\n");
        stateDir = Path.of("target", "codex-e2e", UUID.randomUUID().toString()).toAbsolutePath();
    }

    @Test
    void shellScenarioWritesTheFileWithTheScriptedTokensAndTheAnsweringModel() throws Exception {
        String model = "codex-write";
        server.script(model, Scenario.builder()
                .shell("printf 'hello from codex\\n' > hello.txt").usage(100, 20, 30, 0)
                .say("Wrote hello.txt.").usage(110, 5, 0, 0)
                .build());
        Map<String, String> homeBefore = OfflineHome.snapshot(home);
        Map<String, String> baselineBefore = GitRepos.fingerprint(baseline);

        CapturedRun run = run(model, provider(model));

        assertThat(run.meta().path("outcome").asText()).as(run.describe()).isEqualTo("completed");
        assertThat(run.meta().path("changes").path("files")).extracting(JsonNode::asText).containsExactly("hello.txt");
        assertThat(run.patch()).contains("+hello from codex");
        JsonNode tokens = run.meta().path("tokens");
        assertThat(tokens.path("input").asLong()).as(tokens.toString()).isEqualTo(100 + 110);
        assertThat(tokens.path("output").asLong()).isEqualTo(20 + 5);
        assertThat(tokens.path("cache_read").asLong()).isEqualTo(30);
        assertThat(tokens.path("source").asText()).as("measured on the wire").isEqualTo("metered");
        JsonNode own = run.meta().path("adapter").path("tokens");
        assertThat(own.path("source").asText()).as("the adapter's own figures, kept beside").isEqualTo("adapter");
        assertThat(own.path("input").asLong()).isEqualTo(tokens.path("input").asLong());
        assertThat(own.path("output").asLong()).isEqualTo(tokens.path("output").asLong());
        assertThat(own.path("cache_write").isNumber()).as("the server sent no cache-write figure: unmeasured, "
                + "whatever the CLI prints; " + own).isFalse();
        assertThat(tokens.path("cache_write").isNumber()).as("nor on the wire").isFalse();
        assertThat(run.meta().path("cost").isNull()).as("codex prints no cost").isTrue();
        assertThat(run.meta().path("served_model").path("answered")).extracting(JsonNode::asText).containsExactly(model);
        assertThat(run.meta().path("served_model").path("verdict").asText()).isEqualTo("match");
        assertThat(run.meta().path("summary").asText()).isEqualTo("Wrote hello.txt.");
        // the requested model went to the endpoint on every request, and the prompt arrived intact
        assertThat(run.requests()).hasSize(2).allSatisfy(r -> {
            assertThat(r.model()).isEqualTo(model);
            assertThat(r.path()).isEqualTo("/v1/responses");
        });
        String escapedPrompt = JSON.writeValueAsString(PROMPT);
        assertThat(run.requests().get(0).body()).contains(escapedPrompt.substring(1, escapedPrompt.length() - 1));
        assertThat(OfflineHome.snapshot(home)).as("the fake HOME, .codex, .npm and .cache included").isEqualTo(homeBefore);
        assertThat(GitRepos.fingerprint(baseline)).as("the baseline").isEqualTo(baselineBefore);
        for (String f : List.of("transcript.log", "events.jsonl", "meta.json")) {
            assertThat(Files.readString(run.record().resultDir().resolve(f))).as(f).doesNotContain(KEY);
        }
    }

    @Test
    void unconfinedItsShellToolGetsTheRunsHomeAndNeverSourcesTheUsersRcFiles() throws Exception {
        String model = "codex-rc";
        server.script(model, Scenario.builder()
                .shell("printf 'home=%s\\n' \"$HOME\" > home.txt").usage(50, 10, 0, 0)
                .say("Wrote home.txt.").usage(60, 5, 0, 0)
                .build());
        // a user's rc files (a pyenv init, say) that write into the real HOME when a shell sources them
        for (String rc : List.of(".bashrc", ".profile", ".bash_profile", ".bash_login", ".zshrc", ".zshenv")) {
            GitRepos.write(home, rc, "echo " + rc + " >> '" + home.resolve("sourced.txt") + "'\n");
        }
        Map<String, String> homeBefore = OfflineHome.snapshot(home);

        CapturedRun run = run(model, provider(model), Sandbox.OFF);

        assertThat(run.meta().path("outcome").asText()).as(run.describe()).isEqualTo("completed");
        assertThat(run.meta().path("sandbox").path("mode").asText()).as("unconfined").isNotEqualTo("bubblewrap");
        assertThat(run.patch()).as("the shell tool ran").contains("+home=").doesNotContain("+home=" + home + "\n");
        assertThat(home.resolve("sourced.txt")).as("no rc file of the user's HOME was sourced").doesNotExist();
        assertThat(OfflineHome.snapshot(home)).as("the fake HOME, byte for byte").isEqualTo(homeBefore);
    }

    @Test
    void answeringModelOtherThanTheRequestedOneIsAMismatch() throws Exception {
        String model = "codex-swap";
        server.script(model, Scenario.builder().say("Nothing to do.").usage(40, 4, 0, 0).answerAs("codex-other").build());

        CapturedRun run = run(model, provider(model));

        assertThat(run.meta().path("outcome").asText()).as(run.describe()).isEqualTo("no-op");
        assertThat(run.meta().path("served_model").path("answered")).extracting(JsonNode::asText)
                .containsExactly("codex-other");
        assertThat(run.meta().path("served_model").path("verdict").asText()).isEqualTo("mismatch");
        assertThat(run.meta().path("tokens").path("input").asLong()).isEqualTo(40);
    }

    @Test
    void rateLimitedEndpointEndsRateLimitedWithTheResetTime() throws Exception {
        String model = "codex-429";
        Scenario.Builder s = Scenario.builder();
        for (int i = 0; i < 8; i++) { // codex tries once and retries five times
            s.failRateLimited(Duration.ofSeconds(1));
        }
        server.script(model, s.build());
        Instant started = Instant.now().minusSeconds(1);

        CapturedRun run = run(model, provider(model));

        assertThat(run.meta().path("outcome").asText()).as(run.describe()).isEqualTo("rate-limited");
        assertThat(run.meta().path("reason").asText()).contains("429");
        assertThat(run.meta().path("retry_at").isTextual()).as(run.describe()).isTrue();
        assertThat(Instant.parse(run.meta().path("retry_at").asText())).isAfter(started);
        assertThat(run.meta().path("tokens").path("source").isNull()).as("no turn completed").isTrue();
    }

    @Test
    void droppedConnectionEndsTransient() throws Exception {
        String model = "codex-drop";
        Scenario.Builder s = Scenario.builder();
        for (int i = 0; i < 8; i++) {
            s.dropConnection();
        }
        server.script(model, s.build());

        CapturedRun run = run(model, provider(model));

        assertThat(run.meta().path("outcome").asText()).as(run.describe()).isEqualTo("transient");
        assertThat(run.meta().path("retry_at").isNull()).isTrue();
        assertThat(run.meta().path("tokens").path("source").isNull()).as("no turn completed").isTrue();
    }

    private ResolvedProvider provider(String model) {
        return new ResolvedProvider("scripted", EnumSet.of(ApiStyle.OPENAI), server.baseUrl(), Secret.of(KEY),
                AuthScheme.BEARER, model);
    }

    private CapturedRun run(String model, ResolvedProvider provider) throws Exception {
        return run(model, provider, Sandbox.AUTO);
    }

    private CapturedRun run(String model, ResolvedProvider provider, Sandbox sandbox) throws Exception {
        return CapturedRun.with(new CodexHarness(), server).stateDir(stateDir).home(home).sandbox(sandbox).captures(CAPTURES)
                .run(provider, RunSpec.builder(CodexHarness.ID, provider.name())
                        .model(model).prompt(PROMPT).baseline(baseline).limits(LIMITS).build());
    }

}
