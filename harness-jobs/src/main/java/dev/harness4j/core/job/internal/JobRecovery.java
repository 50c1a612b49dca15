package dev.harness4j.core.job.internal;

import dev.harness4j.core.job.internal.Transitions.JobSignal;
import dev.harness4j.core.internal.workspace.SafeDelete;
import dev.harness4j.core.job.JobEvent;
import dev.harness4j.core.job.JobException;
import dev.harness4j.core.job.PhaseState;
import dev.harness4j.core.process.RunMarker;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Brings a job whose owner died back to a state it can go on from: the processes of a phase's
 * run that carry its run marker are killed, the run's dir under {@code runs/} removed, the phase
 * reset to pending (its partial work named in the events), and the repository put back at the
 * job's head. A repository that is gone fails the job.
 */
public final class JobRecovery {
    /** How long survivors get between TERM and KILL: 5 s. */
    static final Duration KILL_GRACE = Duration.ofSeconds(5);

    private final JobBook book;
    private final JobRepo repo;

    public JobRecovery(JobBook book, JobRepo repo) {
        this.book = book;
        this.repo = repo;
    }

    /**
     * Recovers, and checks the workspace.
     *
     * @throws JobException {@code WORKSPACE_LOST} after marking the job failed
     */
    public void recover() {
        sweep();
        if (!repo.present()) {
            String why = "the job's workspace " + repo.dir() + " was deleted or is no git repository with branch "
                    + book.branch() + "; the job cannot go on (its checkpoint, events and run results are kept)";
            book.move(JobSignal.FAIL, why);
            JobFinish.writeSummary(book, null);
            throw new JobException(book.jobId(), JobException.Reason.WORKSPACE_LOST, "job " + book.jobId()
                    + " failed: " + why + ". Start a new job from the last commit if you have it: " + book.head());
        }
        repo.resetTo(book.head());
    }

    /** Recovers what it can without failing the job over a lost workspace (for pause and cancel). */
    public void recoverQuietly() {
        sweep();
        if (repo.present()) {
            repo.resetTo(book.head());
        }
    }

    private void sweep() {
        for (PhaseBook p : book.phases()) {
            if (p.state() != PhaseState.RUNNING) {
                continue;
            }
            PhaseBook.RunEntry last = p.lastRun();
            int killed = 0;
            if (last != null) {
                killed = RunMarker.killAll(last.runId(), RunMarker.scopeOf(stateDir()), KILL_GRACE);
                removeRunDir(last.runId());
                book.update(() -> {
                    int i = p.runs.size() - 1;
                    PhaseBook.RunEntry e = p.runs.get(i);
                    if (e.outcome() == null) {
                        p.runs.set(i, new PhaseBook.RunEntry(e.runId(), e.provider(), e.model(), e.startedAt(),
                                "crashed", "the JVM running it died", null, null, null, null, null, null));
                    }
                });
            }
            String partial = last != null && repo.present() ? repo.commitOf(JobRepo.runRef(last.runId())) : null;
            book.event(JobEvent.Kind.PHASE_RESET, p.id(), null, last != null ? last.runId() : null,
                    "the process running it died; " + killed + " surviving process(es) killed; reset to " + book.head()
                            + (partial != null ? " (its partial work is kept as " + JobRepo.runRef(last.runId())
                                    + " = " + partial + ")" : " (its partial work was only in its run's checkout)"));
            book.move(p, Transitions.PhaseSignal.RESET, "reset after a crash");
        }
    }

    private Path stateDir() {
        return book.dir().toAbsolutePath().getParent().getParent(); // <state>/jobs/<id> -> <state>
    }

    private void removeRunDir(String runId) {
        Path runs = stateDir().resolve("runs");
        if (!Files.isDirectory(runs)) {
            return;
        }
        try (DirectoryStream<Path> s = Files.newDirectoryStream(runs, p -> {
            String n = p.getFileName().toString();
            return n.equals(runId) || n.startsWith(runId + ".");
        })) {
            for (Path p : s) {
                SafeDelete.deleteBelow(runs, p);
            }
        } catch (IOException | RuntimeException e) {
            book.event(JobEvent.Kind.NOTE, null, null, runId, "could not remove the stale run dir of " + runId + ": " + e);
        }
    }
}
