package dev.harness4j.core.internal.run;

import dev.harness4j.api.Isolation;
import dev.harness4j.core.RunRecord;
import dev.harness4j.core.internal.workspace.KeptWorkspaces;
import dev.harness4j.core.internal.workspace.SafeDelete;
import dev.harness4j.core.internal.workspace.Workspace;
import dev.harness4j.core.pipeline.RunChain;
import dev.harness4j.core.pipeline.RunContext;
import dev.harness4j.core.pipeline.RunKeys;
import dev.harness4j.core.pipeline.RunOutcome;
import dev.harness4j.core.pipeline.RunStage;
import dev.harness4j.core.pipeline.RunStore;
import dev.harness4j.core.pipeline.Slot;
import dev.harness4j.core.workspace.Baseline;
import dev.harness4j.core.workspace.KeptWorkspace;
import java.time.Duration;
import java.nio.file.Path;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The run's own checkout under the state dir (a clone or a worktree of the baseline, which is
 * never touched) with its scratch and io dirs; publishes {@link RunKeys#WORKSPACE}, {@link
 * RunKeys#SCRATCH_DIR} and {@link RunKeys#IO_DIR}. Once the stages inside are done, a clone's
 * checkout is deleted in the background while the result is written; the rest of the run dir
 * goes after the result is written.
 *
 * <p>With a keep time ({@code HarnessRunner.Builder.keepWorkspace}), the cloned workspace of a
 * run whose harness {@linkplain dev.harness4j.api.Harness#supportsFollowUp() resumes sessions}
 * and reported one is committed and kept, scratch dir included, for a follow-up ({@link
 * KeptWorkspaces}); a follow-up run ({@link CoreKeys#FOLLOW_UP}) adopts the kept directory
 * instead of cloning, and its diff starts at the kept commit.
 */
public final class WorkspaceStage implements RunStage {
    private static final Logger log = LoggerFactory.getLogger(WorkspaceStage.class);

    private final Duration keep;

    /** A stage that never keeps a workspace. */
    public WorkspaceStage() {
        this(null);
    }

    /**
     * A stage that keeps follow-up-able workspaces for the given time.
     *
     * @param keep how long a kept workspace waits for a follow-up, or {@code null} for never
     */
    public WorkspaceStage(Duration keep) {
        this.keep = keep;
    }

    @Override
    public Slot slot() {
        return Slot.WORKSPACE;
    }

    @Override
    public String name() {
        return slot().wireName();
    }

    @Override
    public RunOutcome run(RunChain chain) throws InterruptedException {
        RunContext run = chain.run();
        RunStore store = chain.store();
        RunnerServices services = store.require(CoreKeys.SERVICES);
        KeptWorkspace followed = store.get(CoreKeys.FOLLOW_UP).orElse(null);
        if (run.baseline().dirty() && followed == null) { // a follow-up starts from the kept commit, not the baseline
            chain.outcome().note(run.baseline().dirtyNote());
        }
        KeptWorkspaces kept = new KeptWorkspaces(services.workspaces());
        Workspace ws = followed != null ? kept.adopt(followed, run.runId())
                : services.workspaces().isolate(run.runId(), run.baseline(), run.spec().isolation());
        if (followed != null) {
            chain.outcome().section("parent_run_id", followed.runId());
        }
        boolean keeping = keep != null && ws.isolation() == Isolation.CLONE && run.harness().supportsFollowUp();
        store.put(CoreKeys.KEEP_SESSION, keeping);
        store.put(CoreKeys.WORKSPACE, ws);
        store.put(RunKeys.WORKSPACE, ws.dir());
        store.put(RunKeys.SCRATCH_DIR, ws.scratchDir());
        store.put(RunKeys.IO_DIR, ws.ioDir());
        store.put(CoreKeys.PHASE, RunRecord.Stage.PREPARE);
        RunOutcome out;
        try {
            out = chain.proceed();
        } catch (InterruptedException | RuntimeException | Error e) {
            if (!givenBack(kept, followed, run, store)) {
                scheduleRemoval(services, run, store, ws);
            }
            throw e;
        }
        if (givenBack(kept, followed, run, store)) {
            out.note("the follow-up ended before its agent started: run " + followed.runId()
                    + "'s kept workspace waits for another follow-up");
        } else if (!(keeping && keep(kept, ws, run, out, followed))) {
            scheduleRemoval(services, run, store, ws);
        } // else the directory stays for the follow-up
        return out;
    }

    /** A follow-up whose harness process never started gives the kept workspace back, untouched. */
    private static boolean givenBack(KeptWorkspaces kept, KeptWorkspace followed, RunContext run, RunStore store) {
        return followed != null && store.get(CoreKeys.PHASE).orElse(RunRecord.Stage.CAPTURE) == RunRecord.Stage.PREPARE
                && kept.release(followed, run.runId());
    }

    private static void scheduleRemoval(RunnerServices services, RunContext run, RunStore store, Workspace ws) {
        Future<?> removal = removeCheckoutInBackground(services, run, ws);
        store.require(CoreKeys.CLEANUP).add(() -> {
            await(run, removal);
            ws.close();
        });
    }

    /** Keeps the workspace when the run reported a session; says in the outcome what happened. */
    private boolean keep(KeptWorkspaces kept, Workspace ws, RunContext run, RunOutcome out, KeptWorkspace followed) {
        String session = out.result() != null ? out.result().sessionId() : null;
        if (session == null && followed != null) {
            session = followed.sessionId(); // the continued session, which this run's CLI did not repeat
        }
        if (session == null) {
            out.note("the workspace was not kept for a follow-up: " + run.harness().id()
                    + " reported no session id to continue");
            return false;
        }
        Baseline origin = followed != null
                ? new Baseline(followed.baseline(), followed.ref(), followed.commit(), null, false) : run.baseline();
        try {
            KeptWorkspace k = kept.keep(ws, session, run.harness().id(), run.spec().provider(), run.model(), origin, keep);
            out.section("kept_workspace", java.util.Map.of("until", k.keptUntil().toString(), "commit", k.commit(),
                    "session_id", session));
            return true;
        } catch (RuntimeException e) {
            out.note("the workspace was not kept for a follow-up: " + e.getMessage());
            log.warn("run {}: keeping the workspace failed: {}", run.runId(), e.toString());
            return false;
        }
    }

    /**
     * Starts deleting a clone's checkout, the bulk of the run dir, on the runner's housekeeping
     * thread while the result is written (nothing in it is read from the checkout); a worktree is
     * left to {@link Workspace#close()}, which must unregister it.
     */
    private static Future<?> removeCheckoutInBackground(RunnerServices services, RunContext run, Workspace ws) {
        if (ws.isolation() != Isolation.CLONE) {
            return null;
        }
        Path root = run.stateDir();
        Path checkout = ws.dir();
        try {
            return services.housekeeping().submit(() -> SafeDelete.deleteBelow(root, checkout));
        } catch (RejectedExecutionException e) {
            return null; // the runner is closed: the cleanup deletes it all
        }
    }

    private static void await(RunContext run, Future<?> removal) {
        if (removal == null) {
            return;
        }
        try {
            removal.get();
        } catch (ExecutionException e) {
            log.debug("run {}: deleting the checkout in the background failed ({}); deleting it again", run.runId(),
                    e.getCause().toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the cleanup still deletes the run dir
        }
    }
}
