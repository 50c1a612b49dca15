package dev.harness4j.core.job;

import java.time.Instant;
import java.util.Objects;

/**
 * Something that happened to a job, in the order it happened: given to {@link JobListener}s and
 * appended to the job's {@code events.jsonl}.
 *
 * @param jobId the job
 * @param at when
 * @param kind what happened
 * @param phase the phase it concerns, or {@code null}
 * @param state the job's or the phase's new state ({@link JobState#wireName()} or
 *     {@link PhaseState#wireName()}) for state changes, else {@code null}
 * @param runId the run it concerns, or {@code null}
 * @param detail in words: why, from what to what; or {@code null}
 */
public record JobEvent(String jobId, Instant at, Kind kind, String phase, String state, String runId, String detail) {

    /** What happened. */
    public enum Kind {
        /** The job moved to {@link #state()}. */
        JOB_STATE,
        /** A phase moved to {@link #state()}. */
        PHASE_STATE,
        /** A phase's unfinished work was reset to the commit the phases before it left (crash, pause, quota). */
        PHASE_RESET,
        /** A phase switched to a fallback provider; {@link #detail()} names both. */
        PROVIDER_SWITCH,
        /** A provider failed its health check before a phase; {@link #detail()} names it and says why. */
        HEALTH_CHECK,
        /** The job waits for a rate limit or quota to reset; {@link #detail()} says until when. */
        QUOTA_WAIT,
        /** Work the agent left uncommitted was committed by the job. */
        LEFTOVERS_COMMITTED,
        /** The job's branch was pushed (or the push failed: {@link #detail()}). */
        PUSHED,
        /** Anything else worth keeping: a recovery, a survivor killed. */
        NOTE
    }

    /** Checks the required parts. */
    public JobEvent {
        Objects.requireNonNull(jobId, "jobId");
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(kind, "kind");
    }
}
