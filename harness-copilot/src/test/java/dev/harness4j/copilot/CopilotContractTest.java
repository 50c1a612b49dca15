package dev.harness4j.copilot;

import dev.harness4j.api.Harness;
import dev.harness4j.testkit.contract.HarnessContract;

/** The harness contract kit run for CopilotHarness: offline checks, and real runs of its CLI. */
class CopilotContractTest extends HarnessContract {
    @Override
    protected Harness harness() {
        return new CopilotHarness();
    }
}
