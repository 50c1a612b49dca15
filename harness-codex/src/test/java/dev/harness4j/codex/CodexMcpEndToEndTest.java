package dev.harness4j.codex;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.testkit.RealCli;
import dev.harness4j.testkit.contract.McpCheck;
import java.nio.file.Path;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MCP servers with the real {@code codex}: the scripted MCP server, given to a run through a {@code [mcp_servers.probe]} table of the per-run {@code config.toml},
 * starts inside the sandbox, receives the model's call of {@code record} in the Responses namespace {@code mcp__probe}, and its answer reaches the
 * model ({@link McpCheck}).
 */
@RealCli
class CodexMcpEndToEndTest {
    @TempDir Path tmp;

    @Test
    void theMcpServerReceivesTheModelsCallAndItsAnswerReachesTheModel() {
        // Codex 0.169 offers an MCP server's tools as members of a Responses API namespace tool mcp__<server>
        McpCheck.assertCallsTool(new CodexHarness(), EnumSet.of(ApiStyle.OPENAI), tmp, "mcp__" + McpCheck.SERVER + "__record");
    }

    @Test
    void anHttpMcpServerOnTheHostReceivesTheCallToo() {
        McpCheck.assertCallsHttpTool(new CodexHarness(), EnumSet.of(ApiStyle.OPENAI), tmp, "mcp__" + McpCheck.SERVER + "__record");
    }
}
