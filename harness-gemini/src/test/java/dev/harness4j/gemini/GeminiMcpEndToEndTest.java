package dev.harness4j.gemini;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.testkit.Clis;
import dev.harness4j.testkit.RealCli;
import dev.harness4j.testkit.bench.ScriptedProvider;
import dev.harness4j.testkit.contract.McpCheck;
import dev.harness4j.testkit.model.ScriptedModelServer;
import java.nio.file.Path;
import java.util.EnumSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MCP servers with the real {@code gemini}: the scripted MCP server given to a run through a
 * {@code mcpServers} entry of the per-run settings starts inside the sandbox,
 * receives the model's call of {@code mcp_probe_record}, and its answer reaches the model
 * ({@link McpCheck}).
 */
@RealCli
class GeminiMcpEndToEndTest {
    private static ScriptedModelServer server;

    @TempDir Path tmp;

    @BeforeAll
    static void startServer() {
        Clis.require(new GeminiHarness());
        server = ScriptedModelServer.start().requireKey(ScriptedProvider.KEY);
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void theMcpServerReceivesTheModelsCallAndItsAnswerReachesTheModel() {
        // Gemini CLI 0.61 offers an MCP server's tools as mcp_<server>_<tool>
        McpCheck.assertCallsTool(new GeminiHarness(), EnumSet.of(ApiStyle.GEMINI), server, tmp,
                "mcp_" + McpCheck.SERVER + "_record");
    }
}
