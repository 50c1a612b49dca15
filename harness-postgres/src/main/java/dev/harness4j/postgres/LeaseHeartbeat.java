package dev.harness4j.postgres;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link PgWorker}'s heartbeat: renews the leases of its running attempts; a run whose lease is
 * gone (taken over after the worker froze or lost the network) is bailed, as its result will not
 * be written.
 */
final class LeaseHeartbeat {
    private static final Logger log = LoggerFactory.getLogger(PgWorker.class);

    private final PgQueue queue;
    private final PgWorker.Executor executor;
    private final String worker;
    private final Duration lease;
    private final Map<String, RunningAttempt> active;

    LeaseHeartbeat(PgQueue queue, PgWorker.Executor executor, String worker, Duration lease,
            Map<String, RunningAttempt> active) {
        this.queue = queue;
        this.executor = executor;
        this.worker = worker;
        this.lease = lease;
        this.active = active;
    }

    /** One beat; never throws (a failed renewal is logged, the next beat tries again). */
    void renew() {
        try {
            if (active.isEmpty()) {
                return;
            }
            Set<String> ids = Set.copyOf(active.keySet());
            Set<String> held = queue.renew(worker, ids, lease);
            for (String id : ids) {
                RunningAttempt r = active.get(id);
                if (r != null && !held.contains(id) && !r.lost && r.executing) {
                    r.lost = true;
                    log.warn("worker {}: lost the lease of run {} (entry {}); bailing it", worker, id, r.lease.entryId());
                    executor.bail(id);
                }
            }
        } catch (RuntimeException e) {
            log.warn("worker {}: cannot renew leases: {}", worker, e.getMessage());
        }
    }
}
