package dev.harness4j.core.job.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.harness4j.core.job.internal.Transitions.JobSignal;
import dev.harness4j.core.job.internal.Transitions.PhaseSignal;
import dev.harness4j.core.job.JobPlan;
import dev.harness4j.core.job.JobState;
import dev.harness4j.core.job.PhaseState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every (state, signal) pair of the table, legal and illegal. */
class TransitionsTest {
    private static final Map<JobState, Map<JobSignal, JobState>> JOB = new EnumMap<>(JobState.class);
    private static final Map<PhaseState, Map<PhaseSignal, PhaseState>> PHASE = new EnumMap<>(PhaseState.class);

    static {
        job(JobState.CREATED, JobSignal.START, JobState.RUNNING);
        job(JobState.CREATED, JobSignal.PAUSE, JobState.PAUSED);
        job(JobState.CREATED, JobSignal.FAIL, JobState.FAILED);
        job(JobState.CREATED, JobSignal.CANCEL, JobState.CANCELLED);
        job(JobState.RUNNING, JobSignal.QUOTA, JobState.PAUSED_QUOTA);
        job(JobState.RUNNING, JobSignal.PAUSE, JobState.PAUSED);
        job(JobState.RUNNING, JobSignal.COMPLETE, JobState.COMPLETED);
        job(JobState.RUNNING, JobSignal.FAIL, JobState.FAILED);
        job(JobState.RUNNING, JobSignal.CANCEL, JobState.CANCELLED);
        job(JobState.PAUSED_QUOTA, JobSignal.RESUME, JobState.RUNNING);
        job(JobState.PAUSED_QUOTA, JobSignal.PAUSE, JobState.PAUSED);
        job(JobState.PAUSED_QUOTA, JobSignal.FAIL, JobState.FAILED);
        job(JobState.PAUSED_QUOTA, JobSignal.CANCEL, JobState.CANCELLED);
        job(JobState.PAUSED, JobSignal.RESUME, JobState.RUNNING);
        job(JobState.PAUSED, JobSignal.FAIL, JobState.FAILED);
        job(JobState.PAUSED, JobSignal.CANCEL, JobState.CANCELLED);
        phase(PhaseState.PENDING, PhaseSignal.START, PhaseState.RUNNING);
        phase(PhaseState.PENDING, PhaseSignal.SKIP, PhaseState.SKIPPED);
        phase(PhaseState.PENDING, PhaseSignal.FAIL, PhaseState.FAILED);
        phase(PhaseState.RUNNING, PhaseSignal.COMPLETE, PhaseState.COMPLETED);
        phase(PhaseState.RUNNING, PhaseSignal.FAIL, PhaseState.FAILED);
        phase(PhaseState.RUNNING, PhaseSignal.RESET, PhaseState.PENDING);
    }

    private static void job(JobState f, JobSignal s, JobState t) {
        JOB.computeIfAbsent(f, k -> new EnumMap<>(JobSignal.class)).put(s, t);
    }

    private static void phase(PhaseState f, PhaseSignal s, PhaseState t) {
        PHASE.computeIfAbsent(f, k -> new EnumMap<>(PhaseSignal.class)).put(s, t);
    }

    @TempDir
    Path tmp;

    @Test
    void everyJobStateAndSignalPairIsLegalExactlyAsExpected() {
        int legal = 0;
        for (JobState from : JobState.values()) {
            for (JobSignal s : JobSignal.values()) {
                JobState expected = JOB.getOrDefault(from, Map.of()).get(s);
                if (expected != null) {
                    legal++;
                    assertThat(Transitions.next("j", from, s)).as(from + " --" + s).isEqualTo(expected);
                } else {
                    assertThat(Transitions.lookup(from, s)).as(from + " --" + s).isEmpty();
                    assertThatThrownBy(() -> Transitions.next("j", from, s)).as(from + " --" + s)
                            .isInstanceOf(IllegalTransitionException.class)
                            .hasMessageContaining(from.wireName()).hasMessageContaining(s.name().toLowerCase());
                }
            }
        }
        assertThat(legal).isEqualTo(16);
    }

    @Test
    void everyPhaseStateAndSignalPairIsLegalExactlyAsExpected() {
        int legal = 0;
        for (PhaseState from : PhaseState.values()) {
            for (PhaseSignal s : PhaseSignal.values()) {
                PhaseState expected = PHASE.getOrDefault(from, Map.of()).get(s);
                if (expected != null) {
                    legal++;
                    assertThat(Transitions.next("j", "p", from, s)).as(from + " --" + s).isEqualTo(expected);
                } else {
                    assertThatThrownBy(() -> Transitions.next("j", "p", from, s)).as(from + " --" + s)
                            .isInstanceOf(IllegalTransitionException.class);
                }
            }
        }
        assertThat(legal).isEqualTo(6);
    }

    @Test
    void finishedStatesHaveNoWayOut() {
        for (JobState f : JobState.values()) {
            if (f.isFinished()) {
                for (JobSignal s : JobSignal.values()) {
                    assertThat(Transitions.lookup(f, s)).isEmpty();
                }
            }
        }
    }

    @Test
    void anIllegalMoveOfABookChangesNothingInMemoryOrOnDisk() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("job"));
        JobPlan plan = JobPlan.builder(tmp).id("j").harness("h").provider("p").phase("a", "do a").build();
        JobBook book = JobBook.create(dir, plan, "harness4j/job/j", "abc", e -> { });
        book.move(JobSignal.START, "started");
        book.move(JobSignal.COMPLETE, "done");
        byte[] checkpoint = Files.readAllBytes(dir.resolve(JobBook.CHECKPOINT));
        long events = Files.lines(dir.resolve(JobBook.EVENTS)).count();

        assertThatThrownBy(() -> book.move(JobSignal.RESUME, "again")).isInstanceOf(IllegalTransitionException.class);
        assertThatThrownBy(() -> book.move(book.phase("a"), PhaseSignal.COMPLETE, "x"))
                .isInstanceOf(IllegalTransitionException.class);

        assertThat(book.state()).isEqualTo(JobState.COMPLETED);
        assertThat(book.phase("a").state()).isEqualTo(PhaseState.PENDING);
        assertThat(Files.readAllBytes(dir.resolve(JobBook.CHECKPOINT))).isEqualTo(checkpoint);
        assertThat(Files.lines(dir.resolve(JobBook.EVENTS)).count()).isEqualTo(events);
        assertThat(JobBook.load(dir, e -> { }).state()).isEqualTo(JobState.COMPLETED);
    }
}
