package dev.harness4j.acp;

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
 * Follow-up prompts over ACP: a kept run's session continued with {@code session/load} in the same
 * workspace and per-run agent state, through the meter, against the scripted model server ({@link
 * FollowUpCheck}): the follow-up's model calls carry the first prompt, its diff starts at the first
 * run's end, and the replayed history is not taken for the follow-up's own. Not acp:gemini: Gemini
 * CLI 0.61.0 in ACP mode answers {@code session/load} "No previous sessions found for this project"
 * (it records no session there), nor acp:qwen-code (its row turns chat recording off).
 */
@RealCli
class AcpFollowUpEndToEndTest {
    private static ScriptedModelServer server;

    @TempDir Path tmp;

    @BeforeAll
    static void startServer() {
        server = ScriptedModelServer.start().requireKey(ScriptedProvider.KEY);
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void opencodeContinuesItsSessionWithSessionLoad() {
        Clis.require(new AcpOpencodeHarness());
        FollowUpCheck.assertContinues(new AcpOpencodeHarness(), EnumSet.of(ApiStyle.OPENAI), server, tmp);
    }


    @Test
    void kiloContinuesItsSessionWithSessionLoad() {
        Clis.require(new AcpKiloHarness());
        FollowUpCheck.assertContinues(new AcpKiloHarness(), EnumSet.of(ApiStyle.OPENAI), server, tmp);
    }

    @Test
    void claudeCodeContinuesItsSessionWithSessionLoad() {
        Clis.require(new AcpClaudeCodeHarness());
        FollowUpCheck.assertContinues(new AcpClaudeCodeHarness(), EnumSet.of(ApiStyle.ANTHROPIC), server, tmp);
    }

    @Test
    void codexContinuesItsSessionWithSessionLoad() {
        Clis.require(new AcpCodexHarness());
        FollowUpCheck.assertContinues(new AcpCodexHarness(), EnumSet.of(ApiStyle.OPENAI), server, tmp);
    }

    @Test
    void mistralVibeContinuesItsSessionWithSessionLoad() {
        Clis.require(new AcpMistralVibeHarness());
        FollowUpCheck.assertContinues(new AcpMistralVibeHarness(), EnumSet.of(ApiStyle.OPENAI), server, tmp);
    }
}
