package dev.harness4j.qwen;

import dev.harness4j.api.Harness;
import dev.harness4j.testkit.contract.HarnessContract;

/**
 * The harness contract kit run for QwenHarness: offline checks, and three real runs of its CLI,
 * with the kit's own write scenario (the scripted server makes write_file's path absolute from
 * the working directory Qwen Code states, which its write_file needs).
 */
class QwenContractTest extends HarnessContract {
    @Override
    protected Harness harness() {
        return new QwenHarness();
    }
}
