package dev.harness4j.acp;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.testkit.RealCli;

/** acp:claude-code ({@code claude-agent-acp}) end to end against the scripted server's Anthropic API, through the meter. */
@RealCli
class AcpClaudeCodeEndToEndTest extends AcpEndToEndCheck {
    @Override
    AcpHarness harness() {
        return new AcpClaudeCodeHarness();
    }

    @Override
    ApiStyle style() {
        return ApiStyle.ANTHROPIC;
    }

    @Override
    int attempts() {
        return 3; // CLAUDE_CODE_MAX_RETRIES=2 in the table's env
    }

    /** claude-agent-acp 0.101.0 answers session/prompt with usage and sends its cost in usage_update. */
    @Override
    boolean reportsUsage() {
        return true;
    }

    /** The adapter asks for a session title itself (no switch turns that off), at the run's model. */
    @Override
    int sideRequests() {
        return 1;
    }
}
