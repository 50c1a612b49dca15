package dev.harness4j.acp;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.testkit.RealCli;
import dev.harness4j.testkit.contract.McpCheck;
import java.nio.file.Path;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MCP servers through ACP's {@code session/new}: the scripted MCP server, given to a run, is started
 * by the real agent inside the sandbox, receives the model's call, and its answer reaches the model
 * ({@link McpCheck}); the agent's permission request for the call is answered by the default policy.
 * Not acp:qwen-code: Qwen Code offers the servers of {@code session/new} behind its {@code
 * tool_search} bridge (its native adapter sets {@code alwaysLoadTools} per server in its settings,
 * which ACP cannot carry; with {@code tools.toolSearch.enabled: false} its first request still
 * offers no MCP tool), so the scripted call by name reaches no tool. Nor acp:mistral-vibe, likewise:
 * Vibe 3.0.2 starts the server and lists its tools, but offers the model only its own tools (MCP
 * tools behind {@code search_tool_functions} / {@code run_typescript}).
 */
@RealCli
class AcpMcpEndToEndTest {
    @TempDir Path tmp;

    @Test
    void geminiOverAcpCallsTheStdioServer() {
        McpCheck.assertCallsTool(new AcpGeminiHarness(), EnumSet.of(ApiStyle.GEMINI), tmp, "mcp_" + McpCheck.SERVER + "_record");
    }

    @Test
    void geminiOverAcpCallsAnHttpServerOnTheHost() {
        McpCheck.assertCallsHttpTool(new AcpGeminiHarness(), EnumSet.of(ApiStyle.GEMINI), tmp,
                "mcp_" + McpCheck.SERVER + "_record");
    }

    @Test
    void opencodeOverAcpCallsTheStdioServer() {
        McpCheck.assertCallsTool(new AcpOpencodeHarness(), EnumSet.of(ApiStyle.OPENAI), tmp, McpCheck.SERVER + "_record");
    }

    @Test
    void claudeCodeOverAcpCallsTheStdioServer() {
        McpCheck.assertCallsTool(new AcpClaudeCodeHarness(), EnumSet.of(ApiStyle.ANTHROPIC), tmp,
                "mcp__" + McpCheck.SERVER + "__record");
    }

    @Test
    void claudeCodeOverAcpCallsAnHttpServerOnTheHost() {
        McpCheck.assertCallsHttpTool(new AcpClaudeCodeHarness(), EnumSet.of(ApiStyle.ANTHROPIC), tmp,
                "mcp__" + McpCheck.SERVER + "__record");
    }

    @Test
    void codexOverAcpCallsTheStdioServer() {
        McpCheck.assertCallsTool(new AcpCodexHarness(), EnumSet.of(ApiStyle.OPENAI), tmp, "mcp__" + McpCheck.SERVER + "__record");
    }

    @Test
    void codexOverAcpCallsAnHttpServerOnTheHost() {
        McpCheck.assertCallsHttpTool(new AcpCodexHarness(), EnumSet.of(ApiStyle.OPENAI), tmp,
                "mcp__" + McpCheck.SERVER + "__record");
    }

    @Test
    void kiloOverAcpCallsTheStdioServer() {
        McpCheck.assertCallsTool(new AcpKiloHarness(), EnumSet.of(ApiStyle.OPENAI), tmp, McpCheck.SERVER + "_record");
    }

    @Test
    void kiloOverAcpCallsAnHttpServerOnTheHost() {
        McpCheck.assertCallsHttpTool(new AcpKiloHarness(), EnumSet.of(ApiStyle.OPENAI), tmp, McpCheck.SERVER + "_record");
    }
}
