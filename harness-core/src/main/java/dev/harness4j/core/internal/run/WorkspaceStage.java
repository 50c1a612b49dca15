package dev.harness4j.core.internal.run;

import dev.harness4j.api.Isolation;
import dev.harness4j.core.RunRecord;
import dev.harness4j.core.internal.workspace.SafeDelete;
import dev.harness4j.core.internal.workspace.Workspace;
import dev.harness4j.core.pipeline.RunChain;
import dev.harness4j.core.pipeline.RunContext;
import dev.harness4j.core.pipeline.RunKeys;
import dev.harness4j.core.pipeline.RunOutcome;
import dev.harness4j.core.pipeline.RunStage;
import dev.harness4j.core.pipeline.RunStore;
import dev.harness4j.core.pipeline.Slot;
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
 */
public final class WorkspaceStage implements RunStage {
    private static final Logger log = LoggerFactory.getLogger(WorkspaceStage.class);

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
        if (run.baseline().dirty()) {
            chain.outcome().note(run.baseline().dirtyNote());
        }
        Workspace ws = services.workspaces().isolate(run.runId(), run.baseline(), run.spec().isolation());
        store.put(CoreKeys.WORKSPACE, ws);
        store.put(RunKeys.WORKSPACE, ws.dir());
        store.put(RunKeys.SCRATCH_DIR, ws.scratchDir());
        store.put(RunKeys.IO_DIR, ws.ioDir());
        store.put(CoreKeys.PHASE, RunRecord.Stage.PREPARE);
        try {
            return chain.proceed();
        } finally {
            Future<?> removal = removeCheckoutInBackground(services, run, ws);
            store.require(CoreKeys.CLEANUP).add(() -> {
                await(run, removal);
                ws.close();
            });
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
