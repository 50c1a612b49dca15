package dev.harness4j.acp;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.testkit.RealCli;
import dev.harness4j.testkit.model.Scenario;

/** acp:qwen-code ({@code qwen --acp}) end to end against the scripted server's OpenAI chat API, through the meter. */
@RealCli
class AcpQwenEndToEndTest extends AcpEndToEndCheck {
    @Override
    AcpHarness harness() {
        return new AcpQwenHarness();
    }

    @Override
    ApiStyle style() {
        return ApiStyle.OPENAI;
    }

    /** Its write_file tool takes absolute paths only: the scripted step writes the file with a shell command. */
    @Override
    Scenario.Builder writeHello(Scenario.Builder s) {
        return s.shell("printf 'hello from acp\\n' > hello.txt");
    }

    @Override
    int attempts() {
        return 28; // it retries a broken stream many times (a 429 is stopped at the fourth by stop_after_rate_limits)
    }
}
