package dev.harness4j.claude;

import dev.harness4j.api.Harness;
import dev.harness4j.testkit.contract.HarnessContract;
import java.util.Map;

/** The harness contract kit run for ClaudeCodeHarness: offline checks, and three real runs of its CLI. */
class ClaudeCodeContractTest extends HarnessContract {
    @Override
    protected Harness harness() {
        return new ClaudeCodeHarness();
    }

    @Override
    protected Map<String, String> options() {
        return Map.of(ClaudeCodeHarness.OPTION_MAX_RETRIES, "0"); // the failing run answers at once
    }
}
