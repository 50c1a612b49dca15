package dev.harness4j.testkit.model;

import dev.harness4j.testkit.RealCli;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real installed {@code claude} against the scripted server, in a temp git repository. */
@RealCli
class ClaudeCodeEndToEndTest {
    private static final String MODEL = "scripted-claude";
    private static final String KEY = "sk-test-claude";

    @TempDir
    Path tmp;

    private ScriptedModelServer server;
    private Path claude;

    @BeforeEach
    void setUp() {
        claude = CliProcess.require("claude-code", "claude");
        server = ScriptedModelServer.start().requireKey(KEY);
    }

    @AfterEach
    void tearDown() {
        server.close();
    }

    private CliProcess.Result runClaude(Path repo, String prompt, String... extraArgs) throws Exception {
        Path config = Files.createDirectories(tmp.resolve("claude-config"));
        Map<String, String> env = Map.ofEntries(
                Map.entry("ANTHROPIC_BASE_URL", server.baseUrl().toString()),
                Map.entry("ANTHROPIC_API_KEY", KEY),
                Map.entry("ANTHROPIC_MODEL", MODEL),
                Map.entry("ANTHROPIC_DEFAULT_OPUS_MODEL", MODEL),
                Map.entry("ANTHROPIC_DEFAULT_SONNET_MODEL", MODEL),
                Map.entry("ANTHROPIC_DEFAULT_HAIKU_MODEL", MODEL),
                Map.entry("CLAUDE_CODE_SUBAGENT_MODEL", MODEL),
                Map.entry("CLAUDE_CONFIG_DIR", config.toString()),
                Map.entry("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1"),
                Map.entry("IS_SANDBOX", "1"),
                Map.entry("HOME", Files.createDirectories(tmp.resolve("home")).toString()));
        List<String> cmd = new java.util.ArrayList<>(List.of(claude.toString(), "-p", "--output-format", "json",
                "--model", MODEL, "--dangerously-skip-permissions"));
        cmd.addAll(List.of(extraArgs));
        return CliProcess.run(cmd, repo, env, prompt, tmp);
    }

    private static JsonNode envelope(CliProcess.Result r) throws Exception {
        String line = r.stdout().lines().filter(l -> l.startsWith("{")).reduce((a, b) -> b)
                .orElseThrow(() -> new AssertionError("no JSON envelope in:\n" + r.both()));
        return new ObjectMapper().readTree(line);
    }

    @Test
    void writeFileScenarioMakesClaudeWriteTheFileWithExactContentAndReportTheScriptedUsage() throws Exception {
        Path repo = CliProcess.gitRepo(tmp.resolve("repo"));
        server.script(MODEL, Scenario.builder()
                .writeFile("docs/hello.txt", "hello from the script\nsecond line\n").usage(100, 20, 30, 40)
                .say("Wrote docs/hello.txt.").usage(110, 5, 0, 0)
                .build());

        CliProcess.Result r = runClaude(repo, "Create docs/hello.txt");

        assertThat(r.exitCode()).as(r.both()).isZero();
        assertThat(repo.resolve("docs/hello.txt")).hasContent("hello from the script\nsecond line\n");
        JsonNode env = envelope(r);
        assertThat(env.path("is_error").asBoolean()).isFalse();
        assertThat(env.path("result").asText()).isEqualTo("Wrote docs/hello.txt.");
        JsonNode usage = env.path("usage");
        assertThat(usage.path("input_tokens").asLong()).isEqualTo(210);
        assertThat(usage.path("output_tokens").asLong()).isEqualTo(25);
        assertThat(usage.path("cache_read_input_tokens").asLong()).isEqualTo(30);
        assertThat(usage.path("cache_creation_input_tokens").asLong()).isEqualTo(40);
        assertThat(server.played(MODEL)).isEqualTo(2);
        List<RecordedRequest> turns = server.requests(RecordedRequest.Kind.TURN);
        assertThat(turns).allSatisfy(t -> {
            assertThat(t.path()).isEqualTo("/v1/messages");
            assertThat(t.stream()).isTrue();
            assertThat(t.tools()).contains("Write", "Bash");
            assertThat(t.authHeaders()).contains("x-api-key");
            assertThat(t.toString()).doesNotContain(KEY);
        });
    }

    @Test
    void shellScenarioMakesClaudeRunTheCommand() throws Exception {
        Path repo = CliProcess.gitRepo(tmp.resolve("repo"));
        server.script(MODEL, Scenario.builder()
                .shell("printf 'shelled %s\\n' ok > shell.txt")
                .say("Ran it.")
                .build());

        CliProcess.Result r = runClaude(repo, "Run the command");

        assertThat(r.exitCode()).as(r.both()).isZero();
        assertThat(repo.resolve("shell.txt")).hasContent("shelled ok\n");
        assertThat(envelope(r).path("result").asText()).isEqualTo("Ran it.");
    }

    @Test
    void answerAsShowsInClaudesStreamedAssistantMessages() throws Exception {
        // Claude Code keys the envelope's modelUsage by the model it asked for; the answering
        // model shows only in the assistant messages of --output-format stream-json --verbose.
        Path repo = CliProcess.gitRepo(tmp.resolve("repo"));
        server.script(MODEL, Scenario.builder().answerAs("substitute-model").say("Hi.").build());

        CliProcess.Result r = runClaude(repo, "Say hi", "--output-format", "stream-json", "--verbose");

        assertThat(r.exitCode()).as(r.both()).isZero();
        assertThat(r.stdout().lines().filter(l -> l.contains("\"type\":\"assistant\"")))
                .isNotEmpty()
                .allSatisfy(l -> assertThat(l).contains("\"model\":\"substitute-model\""));
    }

    @Test
    void claudeRetriesARateLimitAndTheRetryPlaysTheNextStep() throws Exception {
        Path repo = CliProcess.gitRepo(tmp.resolve("repo"));
        server.script(MODEL, Scenario.builder()
                .failRateLimited(java.time.Duration.ofSeconds(1))
                .writeFile("after-retry.txt", "written after a retry\n")
                .say("Done after retry.")
                .build());

        CliProcess.Result r = runClaude(repo, "Create after-retry.txt");

        assertThat(r.exitCode()).as(r.both()).isZero();
        assertThat(repo.resolve("after-retry.txt")).hasContent("written after a retry\n");
        assertThat(server.requests(RecordedRequest.Kind.TURN)).extracting(RecordedRequest::status)
                .containsExactly(429, 200, 200);
    }

    @Test
    void contextLengthFailureMakesClaudeReportAnError() throws Exception {
        Path repo = CliProcess.gitRepo(tmp.resolve("repo"));
        server.script(MODEL, Scenario.builder().failContextLength().build());

        CliProcess.Result r = runClaude(repo, "Do something big");

        assertThat(r.exitCode()).as(r.both()).isNotZero();
        JsonNode env = envelope(r);
        assertThat(env.path("is_error").asBoolean()).as(r.both()).isTrue();
        assertThat(r.stdout()).containsIgnoringCase("too long");
    }
}
