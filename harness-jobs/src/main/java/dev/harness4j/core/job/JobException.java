package dev.harness4j.core.job;

import dev.harness4j.api.HarnessException;

/**
 * A job operation that cannot be done: an unknown job, a finished one resumed, one run by another
 * process, a workspace that was deleted. {@link #reason()} says which, the message says what to do.
 */
public final class JobException extends HarnessException {
    private static final long serialVersionUID = 1L;

    /** What went wrong, for a caller that acts on it. */
    public enum Reason {
        /** No job with that id in the state dir. */
        UNKNOWN_JOB,
        /** The job is completed, failed or cancelled. */
        FINISHED,
        /** Another thread or process is running the job. */
        BUSY,
        /** A job with that id exists already. */
        EXISTS,
        /** The job's workspace (its git repository) is gone or broken; the job was marked failed. */
        WORKSPACE_LOST,
        /** Its files could not be read or written. */
        IO
    }

    private final String jobId;
    private final Reason reason;

    public JobException(String jobId, Reason reason, String message, Throwable cause) {
        super(message, cause);
        this.jobId = jobId;
        this.reason = reason;
    }

    public JobException(String jobId, Reason reason, String message) {
        this(jobId, reason, message, null);
    }

    /** The job's id. */
    public String jobId() {
        return jobId;
    }

    /** What went wrong. */
    public Reason reason() {
        return reason;
    }
}
