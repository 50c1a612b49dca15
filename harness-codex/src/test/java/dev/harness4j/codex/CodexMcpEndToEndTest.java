package dev.harness4j.codex;

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
 * MCP servers with the real {@code codex}: the scripted MCP server given to a run through a
 * {@code [mcp_servers.probe]} table in the per-run {@code config.toml} starts inside the sandbox,
 * receives the model's call of {@code record} in namespace {@code mcp__probe}, and its answer reaches the model
 * ({@link McpCheck}).
 */
@RealCli
class CodexMcpEndToEndTest {
    private static ScriptedModelServer server;

    @TempDir Path tmp;

    @BeforeAll
    static void startServer() {
        Clis.require(new CodexHarness());
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
        // Codex offers an MCP server's tools as members of a Responses API namespace tool "mcp__<server>"
        McpCheck.assertCallsTool(new CodexHarness(), EnumSet.of(ApiStyle.OPENAI), server, tmp,
                "mcp__" + McpCheck.SERVER + "__record");
    }
}
