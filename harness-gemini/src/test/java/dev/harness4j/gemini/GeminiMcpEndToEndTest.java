package dev.harness4j.gemini;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.testkit.RealCli;
import dev.harness4j.testkit.contract.McpCheck;
import java.nio.file.Path;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MCP servers with the real {@code gemini}: the scripted MCP server, given to a run through {@code mcpServers} of the per-run settings,
 * starts inside the sandbox, receives the model's call of {@code mcp_probe_record}, and its answer reaches the
 * model ({@link McpCheck}).
 */
@RealCli
class GeminiMcpEndToEndTest {
    @TempDir Path tmp;

    @Test
    void theMcpServerReceivesTheModelsCallAndItsAnswerReachesTheModel() {
        // Gemini CLI 0.61 offers an MCP server's tools as mcp_<server>_<tool>
        McpCheck.assertCallsTool(new GeminiHarness(), EnumSet.of(ApiStyle.GEMINI), tmp, "mcp_" + McpCheck.SERVER + "_record");
    }

    @Test
    void anHttpMcpServerOnTheHostReceivesTheCallToo() {
        McpCheck.assertCallsHttpTool(new GeminiHarness(), EnumSet.of(ApiStyle.GEMINI), tmp, "mcp_" + McpCheck.SERVER + "_record");
    }
}
