package dev.harness4j.qwen;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.testkit.RealCli;
import dev.harness4j.testkit.contract.McpCheck;
import java.nio.file.Path;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MCP servers with the real {@code qwen}: the scripted MCP server, given to a run through {@code mcpServers} of the per-run system settings,
 * starts inside the sandbox, receives the model's call of {@code mcp__probe__record}, and its answer reaches the
 * model ({@link McpCheck}).
 */
@RealCli
class QwenMcpEndToEndTest {
    @TempDir Path tmp;

    @Test
    void theMcpServerReceivesTheModelsCallAndItsAnswerReachesTheModel() {
        // Qwen Code 0.24 offers an MCP server's tools as mcp__<server>__<tool> (declared up front by alwaysLoadTools)
        McpCheck.assertCallsTool(new QwenHarness(), EnumSet.of(ApiStyle.OPENAI), tmp, "mcp__" + McpCheck.SERVER + "__record");
    }

    @Test
    void anHttpMcpServerOnTheHostReceivesTheCallToo() {
        McpCheck.assertCallsHttpTool(new QwenHarness(), EnumSet.of(ApiStyle.OPENAI), tmp, "mcp__" + McpCheck.SERVER + "__record");
    }
}
