package dev.harness4j.qwen;

import dev.harness4j.api.Harness;
import dev.harness4j.testkit.contract.HarnessContract;
import dev.harness4j.testkit.model.Scenario;

/** The harness contract kit run for QwenHarness: offline checks, and three real runs of its CLI. */
class QwenContractTest extends HarnessContract {
    @Override
    protected Harness harness() {
        return new QwenHarness();
    }

    @Override
    protected Scenario completedScenario() { // qwen's write_file wants an absolute path: write through its shell
        return Scenario.builder().shell("printf 'written by the contract\\n' > " + CONTRACT_FILE).usage(100, 20, 0, 0)
                .say("Wrote " + CONTRACT_FILE + ".").usage(110, 5, 0, 0).build();
    }
}
