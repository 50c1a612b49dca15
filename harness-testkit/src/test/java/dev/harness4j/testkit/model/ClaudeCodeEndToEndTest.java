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
}
