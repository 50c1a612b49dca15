package dev.harness4j.aider;

import dev.harness4j.api.Harness;
import dev.harness4j.testkit.contract.HarnessContract;

/** The harness contract kit run for AiderHarness: offline checks, and three real runs of its CLI. */
class AiderContractTest extends HarnessContract {
    @Override
    protected Harness harness() {
        return new AiderHarness();
    }
}
