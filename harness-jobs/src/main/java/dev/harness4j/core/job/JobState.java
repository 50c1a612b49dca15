package dev.harness4j.core.job;

import java.util.Locale;

/**
 * Where a job is in its life; the legal moves between states are one table, in {@code
 * dev.harness4j.core.job.internal.Transitions}. Written to {@code checkpoint.json} by {@link
 * #wireName()}.
 */
public enum JobState {
    /** Planned and checkpointed; no phase has started. */
    CREATED,
    /** Phases are running (or a JVM that ran them died: {@code resume} continues it). */
    RUNNING,
    /** A phase hit a rate limit or quota; the job waits for its reset and goes on by itself. */
    PAUSED_QUOTA,
    /** Paused by the user; goes on when resumed. */
    PAUSED,
    /** Every phase completed. */
    COMPLETED,
    /** A phase failed for good, or the job's workspace was lost. */
    FAILED,
    /** Cancelled by the user. */
    CANCELLED;

    /** The kebab-case name on disk: {@code paused-quota}, ... */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Parses a {@link #wireName()} or constant name. */
    public static JobState fromWireName(String name) {
        return valueOf(name.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
    }

    /** Whether the job has ended for good: completed, failed or cancelled; such a job cannot be resumed. */
    public boolean isFinished() {
        return this == COMPLETED || this == FAILED || this == CANCELLED;
    }
}
