package dev.harness4j.testkit.model;

import dev.harness4j.testkit.RealCli;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real installed {@code aider} against the scripted server's Chat Completions. aider offers
 * no tools, so {@code writeFile} arrives as a whole-file edit block in the reply text.
 */
@RealCli
class AiderEndToEndTest {
    private static final String MODEL = "scripted-aider";
    private static final String KEY = "sk-test-aider";

    @TempDir
    Path tmp;

    private ScriptedModelServer server;
    private Path aider;

    @BeforeEach
    void setUp() {
        aider = CliProcess.require("aider", "aider");
        server = ScriptedModelServer.start().requireKey(KEY);
    }

    @AfterEach
    void tearDown() {
        server.close();
    }

    private CliProcess.Result runAider(Path repo, String message, String... extraArgs) throws Exception {
        Map<String, String> env = Map.of(
                "OPENAI_API_BASE", server.baseUrl() + "/v1",
                "OPENAI_API_KEY", KEY,
                "PYTHONUNBUFFERED", "1",
                "LITELLM_LOCAL_MODEL_COST_MAP", "True",
                "HOME", Files.createDirectories(tmp.resolve("home")).toString(),
                "GIT_AUTHOR_NAME", "test", "GIT_AUTHOR_EMAIL", "test@example.com",
                "GIT_COMMITTER_NAME", "test", "GIT_COMMITTER_EMAIL", "test@example.com");
        List<String> cmd = new ArrayList<>(List.of(aider.toString(), "--message", message, "--model", "openai/" + MODEL,
                "--yes-always", "--no-pretty", "--no-fancy-input", "--no-check-update", "--no-show-release-notes",
                "--no-analytics", "--no-show-model-warnings", "--edit-format", "whole", "--no-gitignore"));
        cmd.addAll(List.of(extraArgs));
        return CliProcess.run(cmd, repo, env, null, tmp);
    }

    @Test
    void writeFileScenarioMakesAiderWriteTheFileWithExactContent() throws Exception {
        Path repo = CliProcess.gitRepo(tmp.resolve("repo"));
        server.script(MODEL, Scenario.builder().writeFile("hello.txt", "hello from the script\nsecond line\n").build());

        CliProcess.Result r = runAider(repo, "Create hello.txt");

        assertThat(repo.resolve("hello.txt")).as(r.both()).hasContent("hello from the script\nsecond line\n");
        assertThat(server.played(MODEL)).isEqualTo(1);
        List<RecordedRequest> turns = server.requests(RecordedRequest.Kind.TURN);
        assertThat(turns).hasSize(1);
        assertThat(turns.get(0).tools()).isEmpty();
        assertThat(turns.get(0).authHeaders()).containsExactly("authorization");
    }

    @Test
    void aiderReportsTheScriptedUsageWhenNotStreaming() throws Exception {
        // Streaming, aider counts tokens itself with a tokenizer; only --no-stream reports the served usage.
        Path repo = CliProcess.gitRepo(tmp.resolve("repo"));
        server.script(MODEL, Scenario.builder().say("Nothing to change.").usage(321, 45, 0, 0).build());

        CliProcess.Result r = runAider(repo, "Just answer", "--no-stream");

        assertThat(r.stdout()).as(r.both()).contains("Tokens: 321 sent, 45 received.");
    }

    @Test
    void contextLengthFailureMakesAiderReportAnError() throws Exception {
        Path repo = CliProcess.gitRepo(tmp.resolve("repo"));
        server.script(MODEL, Scenario.builder().failContextLength().build());

        CliProcess.Result r = runAider(repo, "Do something big");

        assertThat(r.both()).containsIgnoringCase("context window");
    }
}
