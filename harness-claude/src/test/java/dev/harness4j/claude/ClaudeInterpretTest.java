package dev.harness4j.claude;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.ServedModel.Verdict;
import dev.harness4j.api.Termination;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClaudeInterpretTest {
    private static final Instant NOW = Instant.parse("2026-11-29T14:00:00Z");
    @TempDir Path dir;
    private final ClaudeCodeHarness harness = new ClaudeCodeHarness(Clock.fixed(NOW, ZoneOffset.UTC));

    @Test
    void noEnvelopeIsAnErrorQuotingTheLastOutputLines() {
        HarnessResult r = harness.interpret(Executions.in(dir).exit(1)
                .stdout("starting\n").stderr("Error: --dangerously-skip-permissions cannot be used with root\n")
                .build());

        assertThat(r.outcome()).isEqualTo(Outcome.ERROR);
        assertThat(r.reason()).contains("no result envelope").contains("exit code 1")
                .contains("cannot be used with root").contains("starting");
        assertThat(r.tokens().isMeasured()).isFalse();
        assertThat(r.cost()).isNull();
        assertThat(r.servedModel().verdict()).isEqualTo(Verdict.UNMEASURED);
    }

    @Test
    void anUnparsableEnvelopeIsAnErrorToo() {
        HarnessResult r = harness.interpret(Executions.in(dir).exit(0)
                .stdout("{\"type\":\"result\",\"subtype\":\"succ").build());

        assertThat(r.outcome()).isEqualTo(Outcome.ERROR);
        assertThat(r.reason()).contains("no result envelope");
    }

    @Test
    void theReasonQuotesTheEndOfVeryLongOutput() {
        String noise = "x".repeat(5000) + "\nTHE-LAST-LINE\n";
        HarnessResult r = harness.interpret(Executions.in(dir).exit(1).stdout(noise).build());

        assertThat(r.reason()).contains("THE-LAST-LINE").hasSizeLessThanOrEqualTo(ClaudeResults.MAX_REASON_CHARS);
    }

    @Test
    void aGuardStopWinsOverWhateverWasPrinted() {
        HarnessResult r = harness.interpret(Executions.in(dir).exit(null)
                .termination(new Termination(Termination.Kind.INACTIVITY_TIMEOUT, "no new output within 5 s"))
                .stdout("partial\n").build());

        assertThat(r.outcome()).isEqualTo(Outcome.TIMEOUT);
        assertThat(r.reason()).contains("no new output within 5 s");
    }

    @Test
    void aStartFailureIsAnError() {
        HarnessResult r = harness.interpret(Executions.in(dir).exit(null)
                .termination(new Termination(Termination.Kind.START_FAILED, "no such file: claude")).build());

        assertThat(r.outcome()).isEqualTo(Outcome.ERROR);
        assertThat(r.reason()).contains("no such file");
    }

    @Test
    void neverQuotesTheKeyInAReason() {
        HarnessResult r = harness.interpret(Executions.in(dir).exit(1).stderr("bad key sk-test given\n").build());

        assertThat(r.reason()).doesNotContain("sk-test").contains("***");
    }
}
