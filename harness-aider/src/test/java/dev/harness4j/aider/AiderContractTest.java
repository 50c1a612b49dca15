package dev.harness4j.aider;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.Harness;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.Termination;
import dev.harness4j.core.RunRecord;
import dev.harness4j.testkit.bench.ScriptedProvider;
import dev.harness4j.testkit.contract.HarnessContract;
import dev.harness4j.testkit.model.RecordedRequest;
import java.util.List;

/**
 * The harness contract kit run for AiderHarness: offline checks, and three real runs of its CLI.
 * The failing run also checks that a refused key is {@code auth}, stopped by the meter at the first
 * 401 (aider alone exits 0 after it: {@code AiderInterpretTest} reads that), so no other test runs
 * that scenario again.
 */
class AiderContractTest extends HarnessContract {
    @Override
    protected Harness harness() {
        return new AiderHarness();
    }

    /** Was AiderEndToEndTest.aRefusedKeyIsAuth. */
    @Override
    protected void checkFailing(RunRecord run, List<RecordedRequest> requests) {
        assertThat(run.result().outcome()).as(run.result().toString()).isEqualTo(Outcome.AUTH);
        assertThat(run.termination().kind()).as("the meter's stop at the first 401").isEqualTo(Termination.Kind.AUTH_REFUSED);
        assertThat(run.result().reason()).contains("HTTP 401").doesNotContain(ScriptedProvider.KEY);
    }
}
