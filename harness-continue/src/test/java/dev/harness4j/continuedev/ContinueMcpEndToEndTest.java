package dev.harness4j.continuedev;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.testkit.RealCli;
import dev.harness4j.testkit.contract.McpCheck;
import java.nio.file.Path;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MCP servers with the real {@code cn}: the scripted MCP server, given to a run through {@code
 * mcpServers} of the per-run config.yaml, starts inside the sandbox, receives the model's call of
 * its tool, and its answer reaches the model ({@link McpCheck}).
 */
@RealCli
class ContinueMcpEndToEndTest {
    @TempDir Path tmp;

    @Test
    void theMcpServerReceivesTheModelsCallAndItsAnswerReachesTheModel() {
        McpCheck.assertCallsTool(new ContinueHarness(), EnumSet.of(ApiStyle.OPENAI), tmp, TOOL);
    }

    @Test
    void anHttpMcpServerOnTheHostReceivesTheCallToo() {
        McpCheck.assertCallsHttpTool(new ContinueHarness(), EnumSet.of(ApiStyle.OPENAI), tmp, TOOL);
    }

    /** The name Continue 1.5.47 offers the scripted server's tool under. */
    private static final String TOOL = "record";
}
