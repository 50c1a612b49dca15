package dev.harness4j.codex;

import dev.harness4j.api.Harness;
import dev.harness4j.testkit.contract.HarnessContract;
import dev.harness4j.testkit.model.Scenario;

/** The harness contract kit run for CodexHarness: offline checks, and three real runs of its CLI. */
class CodexContractTest extends HarnessContract {
    @Override
    protected Harness harness() {
        return new CodexHarness();
    }

    @Override
    protected Scenario completedScenario() { // codex writes files through its shell tool
        return Scenario.builder().shell("printf 'written by the contract\\n' > " + CONTRACT_FILE).usage(100, 20, 0, 0)
                .say("Wrote " + CONTRACT_FILE + ".").usage(110, 5, 0, 0).build();
    }
}
