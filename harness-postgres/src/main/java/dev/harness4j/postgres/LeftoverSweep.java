package dev.harness4j.postgres;

import dev.harness4j.core.process.RunMarker;
import dev.harness4j.core.workspace.RunLeftovers;
import dev.harness4j.postgres.internal.LocalClaims;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a {@link PgWorker} does first on its local state dir: for every run a dead worker there
 * had claimed (killed with -9, its claim file left behind), stops the run's surviving processes,
 * removes its workspace, scratch dir and half-written result ({@link RunLeftovers}), and ends
 * the dead attempt's lease so the entry is queued again now ({@link PgQueue#expireLease}). Runs
 * of a live worker sharing the state dir are left alone.
 */
final class LeftoverSweep {
    private static final Logger log = LoggerFactory.getLogger(PgWorker.class);

    private LeftoverSweep() {}

    /** Sweeps; a run that cannot be swept is logged and its claim kept for the next start. */
    static int sweep(LocalClaims claims, Path stateDir, PgQueue queue, String worker) {
        int swept = 0;
        for (LocalClaims.Claim c : claims.dead()) {
            try {
                RunLeftovers.Swept s = RunLeftovers.sweep(stateDir, c.runId(), RunMarker.KILL_TIMEOUT);
                boolean released = queue.expireLease(c.runId());
                claims.remove(c.runId());
                swept++;
                log.info("worker {}: swept run {} (entry {}) of dead worker {}: {} processes stopped, {} paths removed{}",
                        worker, c.runId(), c.entryId(), c.worker(), s.killed(), s.removed().size(),
                        released ? ", its lease ended so the entry is queued again now" : "");
            } catch (RuntimeException e) {
                log.warn("worker {}: cannot sweep run {} of dead worker {} in {}: {}", worker, c.runId(), c.worker(),
                        stateDir, e.toString());
            }
        }
        return swept;
    }
}
