package dev.harness4j.opencode;

import dev.harness4j.api.Harness;
import dev.harness4j.testkit.contract.HarnessContract;

/** The harness contract kit run for OpencodeHarness: offline checks, and three real runs of its CLI. */
class OpencodeContractTest extends HarnessContract {
    @Override
    protected Harness harness() {
        return new OpencodeHarness();
    }
}
