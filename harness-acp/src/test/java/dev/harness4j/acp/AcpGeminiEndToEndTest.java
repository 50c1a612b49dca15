package dev.harness4j.acp;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.testkit.RealCli;

/** acp:gemini ({@code gemini --acp}) end to end against the scripted server's Gemini API, through the meter. */
@RealCli
class AcpGeminiEndToEndTest extends AcpEndToEndCheck {
    @Override
    AcpHarness harness() {
        return new AcpGeminiHarness();
    }

    @Override
    ApiStyle style() {
        return ApiStyle.GEMINI;
    }

    @Override
    int attempts() {
        return 3; // general.maxAttempts in the table's settings
    }
}
