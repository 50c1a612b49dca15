package dev.harness4j.copilot;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.testkit.Clis;
import dev.harness4j.testkit.RealCli;
import dev.harness4j.testkit.bench.ScriptedProvider;
import dev.harness4j.testkit.contract.FollowUpCheck;
import dev.harness4j.testkit.model.ScriptedModelServer;
import java.nio.file.Path;
import java.util.EnumSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Follow-up prompts with the real {@code copilot}: a kept run's session continued with {@code
 * --resume} in the same workspace and per-run {@code COPILOT_HOME}, through the meter, against the scripted
 * model server ({@link FollowUpCheck}).
 */
@RealCli
class CopilotFollowUpEndToEndTest {
    private static ScriptedModelServer server;

    @TempDir Path tmp;

    @BeforeAll
    static void startServer() {
        Clis.require(new CopilotHarness());
        server = ScriptedModelServer.start().requireKey(ScriptedProvider.KEY);
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aFollowUpContinuesTheSessionInTheKeptWorkspaceAndItsDiffStartsAtThePreviousRunsEnd() {
        FollowUpCheck.assertContinues(new CopilotHarness(), EnumSet.of(ApiStyle.OPENAI), server, tmp);
    }
}
