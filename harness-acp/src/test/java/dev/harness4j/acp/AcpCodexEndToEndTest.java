package dev.harness4j.acp;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.testkit.RealCli;

/** acp:codex ({@code codex-acp}, mode full-access) end to end against the scripted server's Responses API, through the meter. */
@RealCli
class AcpCodexEndToEndTest extends AcpEndToEndCheck {
    @Override
    AcpHarness harness() {
        return new AcpCodexHarness();
    }

    @Override
    ApiStyle style() {
        return ApiStyle.OPENAI;
    }

    @Override
    int attempts() {
        return 3; // request_max_retries and stream_max_retries = 2 in the table's config.toml
    }
}
