package dev.harness4j.copilot;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.testkit.RealCli;
import dev.harness4j.testkit.contract.McpCheck;
import java.nio.file.Path;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MCP servers with the real {@code copilot}: the scripted MCP server, given to a run through {@code --additional-mcp-config @file},
 * starts inside the sandbox, receives the model's call of {@code probe-record}, and its answer reaches the
 * model ({@link McpCheck}).
 */
@RealCli
class CopilotMcpEndToEndTest {
    @TempDir Path tmp;

    @Test
    void theMcpServerReceivesTheModelsCallAndItsAnswerReachesTheModel() {
        // Copilot CLI names an MCP tool <server>-<tool>
        McpCheck.assertCallsTool(new CopilotHarness(), EnumSet.of(ApiStyle.OPENAI), tmp, McpCheck.SERVER + "-record");
    }

    @Test
    void anHttpMcpServerOnTheHostReceivesTheCallToo() {
        McpCheck.assertCallsHttpTool(new CopilotHarness(), EnumSet.of(ApiStyle.OPENAI), tmp, McpCheck.SERVER + "-record");
    }
}
