package dev.harness4j.core.internal.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Outcome;
import dev.harness4j.core.RunRecord;
import dev.harness4j.core.pipeline.Key;
import dev.harness4j.core.pipeline.RunChain;
import dev.harness4j.core.pipeline.RunOutcome;
import dev.harness4j.core.pipeline.RunStage;
import dev.harness4j.core.pipeline.Slot;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The chain: order, one proceed, failures turned into aborted outcomes, bails, timings. */
class StageChainTest {
    @TempDir Path tmp;
    private ChainFixture fixture;
    private final List<String> trace = new ArrayList<>();
    private static final Key<String> SEEN = Key.named("test.seen");

    @BeforeEach
    void setUp() {
        fixture = new ChainFixture(tmp);
    }

    @AfterEach
    void tearDown() {
        fixture.close();
    }

    /** A stage that records its way in and out, publishing its name for the ones inside. */
    private RunStage traced(String name, Slot slot) {
        return new RunStage() {
            @Override
            public Slot slot() {
                return slot;
            }

            @Override
            public String name() {
                return name;
            }

            @Override
            public RunOutcome run(RunChain chain) throws InterruptedException {
                trace.add("in " + name + " after " + chain.store().get(SEEN).orElse("-"));
                chain.store().put(SEEN, name);
                RunOutcome out = chain.proceed();
                trace.add("out " + name + (out.aborted() ? " aborted" : ""));
                out.note(name);
                return out;
            }
        };
    }

    @Test
    void stagesRunOutermostFirstAndAmendTheOutcomeOnTheWayOut() throws Exception {
        var ran = fixture.run(ChainFixture.spec(), List.of(traced("a", Slot.RECORD), traced("b", Slot.METER),
                ChainFixture.completes()));

        assertThat(trace).containsExactly("in a after -", "in b after a", "out b", "out a");
        assertThat(ran.outcome().notes()).containsExactly("b", "a");
        assertThat(ran.outcome().result().outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(ran.outcome().aborted()).isFalse();
        assertThat(ran.chain().stageTimes()).containsKeys("a", "b").hasSize(3);
        assertThat(ran.chain().stageTimes().values()).allSatisfy(d -> assertThat(d.isNegative()).isFalse());
    }

    @Test
    void aStageThatThrowsAbortsTheRunWithAnErrorNamingTheStageOfTheRunAndOuterStagesStillSeeIt() throws Exception {
        RunStage boom = new RunStage() {
            @Override
            public Slot slot() {
                return Slot.SANDBOX;
            }

            @Override
            public RunOutcome run(RunChain chain) {
                throw new IllegalStateException("no bubblewrap today");
            }
        };
        var ran = fixture.run(ChainFixture.spec(), List.of(traced("a", Slot.RECORD), boom, ChainFixture.completes()));

        assertThat(trace).containsExactly("in a after -", "out a aborted");
        assertThat(ran.outcome().aborted()).isTrue();
        assertThat(ran.outcome().result().outcome()).isEqualTo(Outcome.ERROR);
        assertThat(ran.outcome().result().reason()).isEqualTo("workspace failed: no bubblewrap today");
        assertThat(ran.outcome().stage()).isEqualTo(RunRecord.Stage.WORKSPACE);
    }

    @Test
    void proceedingTwiceIsRefused() throws Exception {
        RunStage twice = new RunStage() {
            @Override
            public Slot slot() {
                return Slot.METER;
            }

            @Override
            public RunOutcome run(RunChain chain) throws InterruptedException {
                chain.proceed();
                return chain.proceed();
            }
        };
        var ran = fixture.run(ChainFixture.spec(), List.of(traced("a", Slot.RECORD), twice, ChainFixture.completes()));

        assertThat(ran.outcome().aborted()).isTrue();
        assertThat(ran.outcome().result().reason()).contains("called proceed() twice");
    }

    @Test
    void aBailBeforeTheHarnessStartedEndsTheRunBailedWithoutRunningTheInnerStages() throws Exception {
        AtomicBoolean bailed = new AtomicBoolean(true);
        var ran = fixture.run(ChainFixture.spec().baseline(fixture.repo()).build(), List.of(traced("a", Slot.RECORD),
                traced("b", Slot.METER), ChainFixture.completes()), bailed);

        assertThat(trace).containsExactly("in a after -", "out a aborted");
        assertThat(ran.outcome().result().outcome()).isEqualTo(Outcome.BAILED);
        assertThat(ran.outcome().result().reason()).isEqualTo("bailed before the harness started");
    }

    @Test
    void aStageReturningAnotherOutcomeIsAFailure() throws Exception {
        RunStage other = new RunStage() {
            @Override
            public Slot slot() {
                return Slot.METER;
            }

            @Override
            public RunOutcome run(RunChain chain) throws InterruptedException {
                chain.proceed();
                return new RunOutcome().result(HarnessResult.builder(Outcome.COMPLETED, "m").build());
            }
        };
        var ran = fixture.run(ChainFixture.spec(), List.of(traced("a", Slot.RECORD), other, ChainFixture.completes()));

        assertThat(ran.outcome().result().outcome()).isEqualTo(Outcome.ERROR);
        assertThat(ran.outcome().result().reason()).contains("returned another outcome");
    }
}
