package dev.harness4j.core.job.internal;

/** A job or phase move the transition table does not have; nothing was changed. */
public final class IllegalTransitionException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    public IllegalTransitionException(String message) {
        super(message);
    }
}
