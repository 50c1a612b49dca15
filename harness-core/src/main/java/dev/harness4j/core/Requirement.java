package dev.harness4j.core;

/**
 * How firmly a {@link HarnessRunner} requires something of a run before it trusts or starts it:
 * the served model ({@link HarnessRunner.Builder#requireServedModel}) or the CLI's login ({@link
 * HarnessRunner.Builder#requireLogin}).
 */
public enum Requirement {
    /** Not required: nothing is checked beyond what is recorded anyway. */
    OFF,
    /**
     * Required where the answer is clear: a served model that is not the requested one (or that
     * nobody measured) marks the run untrusted; a CLI that says it is logged out is refused.
     */
    REQUIRED,
    /**
     * Required, and an unclear answer counts against it: a run whose served model is not
     * measured as the requested one ends {@code model-mismatch}; a CLI whose login is unknown is
     * refused like a logged-out one.
     */
    STRICT
}
