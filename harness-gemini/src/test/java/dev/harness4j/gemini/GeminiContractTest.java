package dev.harness4j.gemini;

import dev.harness4j.api.Harness;
import dev.harness4j.testkit.contract.HarnessContract;

/** The harness contract kit run for GeminiHarness: offline checks, and three real runs of its CLI. */
class GeminiContractTest extends HarnessContract {
    @Override
    protected Harness harness() {
        return new GeminiHarness();
    }
}
