package dev.harness4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.core.GitFixture;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code harness4j run}'s refusals of bad input (exit 2, nothing started); needs no CLI. */
class RunCommandInputTest {
    @TempDir Path tmp;
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        out.getBuffer().setLength(0);
        err.getBuffer().setLength(0);
        return Harness4j.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    }

    @Test
    void badInputIsRefusedWithExitTwoAndAClearMessage() throws Exception {
        String state = tmp.resolve("state").toString();
        assertThat(run("run", "--harness", "claude-code", "--provider", "scripted", "--keep", "5x",
                "--state-dir", state, "x")).isEqualTo(Harness4j.BAD_INPUT);
        assertThat(err.toString()).contains("--keep 5x is not a duration", "30m");
        assertThat(run("run", "--follow-up", "20260101-000000-abcdef12", "--harness", "codex", "--state-dir", state,
                "x")).isEqualTo(Harness4j.BAD_INPUT);
        assertThat(err.toString()).contains("drop --harness");
        assertThat(run("run", "--provider", "scripted", "--state-dir", state, "x")).isEqualTo(Harness4j.BAD_INPUT);
        assertThat(err.toString()).contains("needs --harness and --provider");
        assertThat(run("run", "--harness", "nope", "--provider", "scripted", "--model", "m", "--repo",
                GitFixture.repo(tmp.resolve("r")).toString(), "--state-dir", state, "x"))
                .isEqualTo(Harness4j.BAD_INPUT);
        assertThat(err.toString()).contains("nope");
        assertThat(run("run", "--help")).isZero();
    }

    @Test
    void aFollowUpOfARunThatWasNeverKeptIsBadInput() {
        assertThat(run("run", "--follow-up", "20260101-000000-abcdef12", "--state-dir", tmp.resolve("state").toString(),
                "more")).isEqualTo(Harness4j.BAD_INPUT);
        assertThat(err.toString()).contains("has no kept workspace", "--keep");
    }

    @Test
    void mcpServersForAHarnessWithoutMcpOrTwoOfOneNameOrABadValueAreBadInput() throws Exception {
        String state = tmp.resolve("state").toString();
        String repo = GitFixture.repo(tmp.resolve("r")).toString();
        assertThat(run("run", "--harness", "aider", "--provider", "scripted", "--repo", repo, "--mcp",
                "probe=/bin/true", "--state-dir", state, "x")).isEqualTo(Harness4j.BAD_INPUT);
        assertThat(err.toString()).contains("harness aider cannot be given MCP servers ([probe])", "claude-code");
        assertThat(tmp.resolve("state/runs")).doesNotExist();
        assertThat(run("run", "--harness", "claude-code", "--provider", "scripted", "--repo", repo, "--mcp",
                "probe=/bin/true", "--mcp", "probe=/bin/false", "--state-dir", state, "x")).isEqualTo(Harness4j.BAD_INPUT);
        assertThat(err.toString()).contains("named 'probe' was added already");
        assertThat(run("run", "--harness", "claude-code", "--provider", "scripted", "--repo", repo, "--mcp",
                "/bin/true", "--state-dir", state, "x")).isEqualTo(Harness4j.BAD_INPUT);
        assertThat(err.toString()).contains("NAME=COMMAND [ARG...]");
    }
}
