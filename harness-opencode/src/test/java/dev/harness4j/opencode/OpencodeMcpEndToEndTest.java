package dev.harness4j.opencode;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.testkit.RealCli;
import dev.harness4j.testkit.contract.McpCheck;
import java.nio.file.Path;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MCP servers with the real {@code opencode}: the scripted MCP server, given to a run through {@code mcp} of the per-run {@code OPENCODE_CONFIG},
 * starts inside the sandbox, receives the model's call of {@code probe_record}, and its answer reaches the
 * model ({@link McpCheck}).
 */
@RealCli
class OpencodeMcpEndToEndTest {
    @TempDir Path tmp;

    @Test
    void theMcpServerReceivesTheModelsCallAndItsAnswerReachesTheModel() {
        // opencode 1.18 offers an MCP server's tools as <server>_<tool>
        McpCheck.assertCallsTool(new OpencodeHarness(), EnumSet.of(ApiStyle.OPENAI), tmp, McpCheck.SERVER + "_record");
    }

    @Test
    void anHttpMcpServerOnTheHostReceivesTheCallToo() {
        McpCheck.assertCallsHttpTool(new OpencodeHarness(), EnumSet.of(ApiStyle.OPENAI), tmp, McpCheck.SERVER + "_record");
    }
}
