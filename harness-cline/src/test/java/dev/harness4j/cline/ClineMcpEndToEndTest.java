package dev.harness4j.cline;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.testkit.RealCli;
import dev.harness4j.testkit.contract.McpCheck;
import java.nio.file.Path;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MCP servers with the real {@code cline}: the scripted MCP server, given to a run through {@code mcpServers} of the per-run cline_mcp_settings.json,
 * starts inside the sandbox, receives the model's call of {@code probe__record}, and its answer reaches the
 * model ({@link McpCheck}).
 */
@RealCli
class ClineMcpEndToEndTest {
    @TempDir Path tmp;

    @Test
    void theMcpServerReceivesTheModelsCallAndItsAnswerReachesTheModel() {
        // Cline 3.0.65 offers an MCP server's tools as <server>__<tool>
        McpCheck.assertCallsTool(new ClineHarness(), EnumSet.of(ApiStyle.OPENAI), tmp, McpCheck.SERVER + "__record");
    }

    @Test
    void anHttpMcpServerOnTheHostReceivesTheCallToo() {
        McpCheck.assertCallsHttpTool(new ClineHarness(), EnumSet.of(ApiStyle.OPENAI), tmp, McpCheck.SERVER + "__record");
    }
}
