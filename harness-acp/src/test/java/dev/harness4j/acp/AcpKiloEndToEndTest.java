package dev.harness4j.acp;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.testkit.RealCli;

/** acp:kilo ({@code kilo acp}) end to end against the scripted server's OpenAI chat API, through the meter. */
@RealCli
class AcpKiloEndToEndTest extends AcpEndToEndCheck {
    @Override
    AcpHarness harness() {
        return new AcpKiloHarness();
    }

    @Override
    ApiStyle style() {
        return ApiStyle.OPENAI;
    }

    @Override
    int attempts() {
        return 6; // a 429 is stopped at the second by stop_after_rate_limits
    }
}
