package dev.harness4j.miniswe;

import dev.harness4j.api.Harness;
import dev.harness4j.testkit.contract.HarnessContract;
import dev.harness4j.testkit.model.Scenario;

/** The harness contract kit run for MiniSweAgentHarness: offline checks, and three real runs of its CLI. */
class MiniSweAgentContractTest extends HarnessContract {
    @Override
    protected Harness harness() {
        return new MiniSweAgentHarness();
    }

    @Override
    protected Scenario completedScenario() { // mini acts only through bash, and ends by submitting
        return Scenario.builder().shell("printf 'written by the contract\\n' > " + CONTRACT_FILE).usage(100, 20, 0, 0)
                .shell("echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT").usage(110, 5, 0, 0).build();
    }
}
