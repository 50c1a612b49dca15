package dev.harness4j.core.internal.workspace;

import dev.harness4j.core.workspace.Baseline;
import dev.harness4j.api.Isolation;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run's isolated checkout and its private directories under {@code <stateDir>/runs/<runId>/}:
 * {@link #dir()} (the checkout), {@link #scratchDir()} (the harness's config and state files,
 * outside the checkout) and {@link #ioDir()} (the library's own capture files). {@link #close()}
 * deletes all of it (and, in worktree mode, the baseline's registration of the worktree).
 */
public final class Workspace implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Workspace.class);

    private final Workspaces owner;
    private final String runId;
    private final Path runDir;
    private final Baseline baseline;
    private final Isolation isolation;
    private final AtomicBoolean closed = new AtomicBoolean();

    Workspace(Workspaces owner, String runId, Path runDir, Baseline baseline, Isolation isolation) {
        this.owner = Objects.requireNonNull(owner, "owner");
        this.runId = Objects.requireNonNull(runId, "runId");
        this.runDir = Objects.requireNonNull(runDir, "runDir");
        this.baseline = Objects.requireNonNull(baseline, "baseline");
        this.isolation = Objects.requireNonNull(isolation, "isolation");
    }

    public String runId() {
        return runId;
    }

    /** {@code <stateDir>/runs/<runId>}. */
    public Path runDir() {
        return runDir;
    }

    /** The isolated checkout the harness works in. */
    public Path dir() {
        return runDir.resolve("workspace");
    }

    /** The harness's scratch dir, outside the checkout (so it never shows as a change). */
    public Path scratchDir() {
        return runDir.resolve("scratch");
    }

    /** The library's own files for this run (raw output, transcript, events, diff). */
    public Path ioDir() {
        return runDir.resolve("io");
    }

    public Baseline baseline() {
        return baseline;
    }

    public Isolation isolation() {
        return isolation;
    }

    /**
     * Deletes the run's directories and, for a worktree, its registration in the baseline.
     * Idempotent.
     *
     * @throws WorkspaceException when something could not be removed
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        log.debug("removing workspace of run {} at {}", runId, runDir);
        owner.remove(this);
    }
}
