package dev.harness4j.cline;

import dev.harness4j.api.Harness;
import dev.harness4j.testkit.contract.HarnessContract;

/** The harness contract kit run for ClineHarness: offline checks, and three real runs of its CLI. */
class ClineContractTest extends HarnessContract {
    @Override
    protected Harness harness() {
        return new ClineHarness();
    }
}
