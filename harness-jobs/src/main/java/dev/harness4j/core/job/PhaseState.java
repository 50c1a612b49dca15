package dev.harness4j.core.job;

import java.util.Locale;

/** Where one phase of a job is; written to {@code checkpoint.json} by {@link #wireName()}. */
public enum PhaseState {
    /** Not started yet (or reset after a crash, a pause or a quota stop, to run again). */
    PENDING,
    /** Its run is going on. */
    RUNNING,
    /** Its run succeeded; its commits are on the job's branch. */
    COMPLETED,
    /** Its run failed with no attempt left. */
    FAILED,
    /** Never ran: the job failed or was cancelled first. */
    SKIPPED;

    /** The lower-case name on disk. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses a {@link #wireName()} or constant name. */
    public static PhaseState fromWireName(String name) {
        return valueOf(name.trim().toUpperCase(Locale.ROOT));
    }
}
