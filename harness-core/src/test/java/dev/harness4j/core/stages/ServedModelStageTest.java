package dev.harness4j.core.stages;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.ServedModel;
import dev.harness4j.core.Requirement;
import dev.harness4j.core.internal.run.ChainFixture;
import dev.harness4j.core.pipeline.RunOutcome;
import dev.harness4j.core.pipeline.RunStage;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The served-model policy against a terminal fake that answers with another model. */
class ServedModelStageTest {
    @TempDir Path tmp;
    private ChainFixture fixture;

    @BeforeEach
    void setUp() {
        fixture = new ChainFixture(tmp);
    }

    @AfterEach
    void tearDown() {
        fixture.close();
    }

    /** A terminal that ran a process (so the policy applies) answered by {@code other}. */
    private RunOutcome run(Requirement requirement) throws Exception {
        RunStage terminal = ChainFixture.terminal(c -> HarnessResult.builder(Outcome.COMPLETED, "m")
                .servedModel(new ServedModel("m", List.of("other"), ServedModel.Verdict.MISMATCH)).build());
        RunStage ran = new RunStage() { // records a finished process, as the harness stage does
            @Override
            public dev.harness4j.core.pipeline.Slot slot() {
                return dev.harness4j.core.pipeline.Slot.LOGIN_PROBE;
            }

            @Override
            public RunOutcome run(dev.harness4j.core.pipeline.RunChain chain) throws InterruptedException {
                RunOutcome out = chain.proceed();
                return out.process(new dev.harness4j.core.process.ProcessOutcome(0,
                        new dev.harness4j.api.Termination(dev.harness4j.api.Termination.Kind.EXITED, null),
                        java.time.Instant.now(), java.time.Instant.now(), 1));
            }
        };
        return fixture.run(ChainFixture.spec(), List.of(ServedModelStage.of(requirement), ran, terminal)).outcome();
    }

    @Test
    void requiredMarksAMismatchUntrustedAndKeepsTheOutcome() throws Exception {
        RunOutcome out = run(Requirement.REQUIRED);

        assertThat(out.result().outcome()).isEqualTo(Outcome.COMPLETED);
        @SuppressWarnings("unchecked")
        Map<String, Object> trust = (Map<String, Object>) out.sections().get("trust");
        assertThat(trust).containsEntry("trusted", false).containsEntry("require_served_model", "required");
        assertThat(out.notes()).anySatisfy(n -> assertThat(n).startsWith("untrusted: served model mismatch"));
    }

    @Test
    void strictTurnsASuccessfulMismatchIntoModelMismatch() throws Exception {
        RunOutcome out = run(Requirement.STRICT);

        assertThat(out.result().outcome()).isEqualTo(Outcome.MODEL_MISMATCH);
        assertThat(out.result().reason()).contains("asked for m, answered by [other]");
    }

    @Test
    void offJudgesNothing() throws Exception {
        RunOutcome out = run(Requirement.OFF);

        assertThat(out.result().outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(out.sections()).doesNotContainKey("trust");
    }
}
