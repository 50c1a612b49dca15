package dev.harness4j.claude;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.core.RunRecord;
import dev.harness4j.testkit.RealCli;
import dev.harness4j.testkit.contract.McpCheck;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MCP servers with the real {@code claude}: the scripted MCP server, given to a run through a
 * per-run {@code --mcp-config} file (with {@code --strict-mcp-config}), starts inside the sandbox,
 * receives the model's call of {@code mcp__probe__record}, and its answer reaches the model
 * ({@link McpCheck}).
 */
@RealCli
class ClaudeMcpEndToEndTest {
    @TempDir Path tmp;

    @Test
    void theMcpServerReceivesTheModelsCallAndItsAnswerReachesTheModel() throws Exception {
        RunRecord r = McpCheck.assertCallsTool(new ClaudeCodeHarness(), EnumSet.of(ApiStyle.ANTHROPIC), tmp,
                "mcp__" + McpCheck.SERVER + "__record");
        assertThat(Files.readString(r.resultDir().resolve("transcript.log"))).contains("mcp__probe__record");
    }

    @Test
    void anHttpMcpServerOnTheHostReceivesTheCallToo() {
        McpCheck.assertCallsHttpTool(new ClaudeCodeHarness(), EnumSet.of(ApiStyle.ANTHROPIC), tmp, "mcp__" + McpCheck.SERVER + "__record");
    }
}
