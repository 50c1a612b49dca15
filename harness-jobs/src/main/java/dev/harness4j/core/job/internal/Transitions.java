package dev.harness4j.core.job.internal;

import dev.harness4j.core.job.JobState;
import dev.harness4j.core.job.PhaseState;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

/**
 * The one table of legal job and phase moves. Anything not listed is illegal: {@link #next}
 * throws {@link IllegalTransitionException} and the caller changes nothing.
 *
 * <pre>
 * job:   created      --start--&gt; running      --cancel/fail/pause--&gt; cancelled / failed / paused
 *        running      --quota--&gt; paused-quota --complete/fail/cancel--&gt; completed / failed / cancelled
 *        paused-quota --resume--&gt; running     --pause/fail/cancel--&gt; paused / failed / cancelled
 *        paused       --resume--&gt; running     --fail/cancel--&gt; failed / cancelled
 * phase: pending --start--&gt; running --complete/fail/reset--&gt; completed / failed / pending
 *        pending --skip--&gt; skipped
 *        pending --fail--&gt; failed (refused before it starts: no healthy provider)
 * </pre>
 */
public final class Transitions {
    /** What moves a job. */
    public enum JobSignal { START, QUOTA, PAUSE, RESUME, COMPLETE, FAIL, CANCEL }

    /** What moves a phase. */
    public enum PhaseSignal { START, COMPLETE, FAIL, RESET, SKIP }

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

    private Transitions() {}

    private static void job(JobState from, JobSignal on, JobState to) {
        JOB.computeIfAbsent(from, k -> new EnumMap<>(JobSignal.class)).put(on, to);
    }

    private static void phase(PhaseState from, PhaseSignal on, PhaseState to) {
        PHASE.computeIfAbsent(from, k -> new EnumMap<>(PhaseSignal.class)).put(on, to);
    }

    /** Where {@code signal} takes a job in state {@code from}, or empty when that move is illegal. */
    public static Optional<JobState> lookup(JobState from, JobSignal signal) {
        return Optional.ofNullable(JOB.getOrDefault(from, Collections.emptyMap()).get(signal));
    }

    /** Where {@code signal} takes a phase in state {@code from}, or empty when that move is illegal. */
    public static Optional<PhaseState> lookup(PhaseState from, PhaseSignal signal) {
        return Optional.ofNullable(PHASE.getOrDefault(from, Collections.emptyMap()).get(signal));
    }

    /**
     * The job's next state.
     *
     * @throws IllegalTransitionException when the table has no such move
     */
    public static JobState next(String jobId, JobState from, JobSignal signal) {
        return lookup(from, signal).orElseThrow(() -> new IllegalTransitionException("job " + jobId + " is "
                + from.wireName() + "; it cannot " + signal.name().toLowerCase() + " (legal: "
                + JOB.getOrDefault(from, Collections.emptyMap()).keySet() + ")"));
    }

    /**
     * The phase's next state.
     *
     * @throws IllegalTransitionException when the table has no such move
     */
    public static PhaseState next(String jobId, String phaseId, PhaseState from, PhaseSignal signal) {
        return lookup(from, signal).orElseThrow(() -> new IllegalTransitionException("phase " + phaseId + " of job "
                + jobId + " is " + from.wireName() + "; it cannot " + signal.name().toLowerCase() + " (legal: "
                + PHASE.getOrDefault(from, Collections.emptyMap()).keySet() + ")"));
    }
}
