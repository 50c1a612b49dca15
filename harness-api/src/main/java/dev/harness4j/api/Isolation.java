package dev.harness4j.api;

/** How a run's workspace is isolated from the baseline repository. */
public enum Isolation {
    /** A full, independent checkout (a local clone); the baseline is its {@code origin}. */
    CLONE,
    /** A detached {@code git worktree} of the baseline: fast, shares the object store. */
    WORKTREE
}
