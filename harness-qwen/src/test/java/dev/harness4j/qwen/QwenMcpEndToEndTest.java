package dev.harness4j.qwen;

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
 * MCP servers with the real {@code qwen}: the scripted MCP server given to a run through a
 * {@code mcpServers} entry of the per-run system settings starts inside the sandbox,
 * receives the model's call of {@code mcp__probe__record}, and its answer reaches the model
 * ({@link McpCheck}).
 */
@RealCli
class QwenMcpEndToEndTest {
    private static ScriptedModelServer server;

    @TempDir Path tmp;

    @BeforeAll
    static void startServer() {
        Clis.require(new QwenHarness());
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
        // Qwen Code 0.24 offers an MCP server's tools as mcp__<server>__<tool> (declared up front by alwaysLoadTools)
        McpCheck.assertCallsTool(new QwenHarness(), EnumSet.of(ApiStyle.OPENAI), server, tmp,
                "mcp__" + McpCheck.SERVER + "__record");
    }
}
