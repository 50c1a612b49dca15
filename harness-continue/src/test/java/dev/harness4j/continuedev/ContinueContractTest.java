package dev.harness4j.continuedev;

import dev.harness4j.api.Harness;
import dev.harness4j.testkit.contract.HarnessContract;

/** The harness contract kit run for ContinueHarness: offline checks, and three real runs of its CLI. */
class ContinueContractTest extends HarnessContract {
    @Override
    protected Harness harness() {
        return new ContinueHarness();
    }
}
