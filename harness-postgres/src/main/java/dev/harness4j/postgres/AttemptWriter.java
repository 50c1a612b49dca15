package dev.harness4j.postgres;

import dev.harness4j.api.HarnessException;
import dev.harness4j.core.queue.RetryPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes how a {@link PgWorker}'s attempts ended, with their results, through {@link
 * PgQueue#finish} (which checks the lease in the same transaction); while the database is
 * unreachable the write is retried with a doubling wait (up to 30 s) for {@code writeRetry},
 * the result staying on this machine's disk meanwhile. Keeps the counts of {@link PgWorker.Summary}.
 */
final class AttemptWriter {
    private static final Logger log = LoggerFactory.getLogger(PgWorker.class);

    private final PgQueue queue;
    private final String worker;
    private final RetryPolicy retry;
    private final ArtifactCaps caps;
    private final Duration writeRetry;
    private final Duration pollInterval;
    private final AtomicInteger recorded = new AtomicInteger();
    private final List<String> leaseLost = new ArrayList<>();
    private final List<String> unrecorded = new ArrayList<>();

    AttemptWriter(PgQueue queue, String worker, RetryPolicy retry, ArtifactCaps caps, Duration writeRetry,
            Duration pollInterval) {
        this.queue = queue;
        this.worker = worker;
        this.retry = retry;
        this.caps = caps;
        this.writeRetry = writeRetry;
        this.pollInterval = pollInterval;
    }

    /** Writes the attempt's end, retrying while the database is unreachable. */
    void record(PgLease l, PgWorker.Attempt attempt) {
        PgResults.Upload upload = null;
        if (attempt.resultDir() != null && attempt.resultsRoot() != null) {
            try {
                upload = PgResults.upload(attempt.resultsRoot(), attempt.resultDir(), caps, worker);
            } catch (RuntimeException e) {
                log.warn("worker {}: the result of run {} in {} cannot be stored ({}); recording its end only", worker,
                        l.runId(), attempt.resultDir(), e.getMessage());
            }
        }
        long deadline = System.nanoTime() + writeRetry.toNanos();
        long waitMs = Math.min(1_000, Math.max(50, pollInterval.toMillis()));
        while (true) {
            try {
                PgQueue.Finish f = queue.finish(l, attempt.result(), retry, upload);
                if (f == PgQueue.Finish.LEASE_LOST) {
                    log.warn("worker {}: the lease of run {} (entry {}) was taken over; its result is not written"
                            + " (kept on this machine{})", worker, l.runId(), l.entryId(),
                            attempt.resultDir() == null ? "" : " at " + attempt.resultDir());
                    add(leaseLost, l.runId());
                } else {
                    recorded.incrementAndGet();
                }
                return;
            } catch (DatabaseUnavailableException e) {
                if (System.nanoTime() > deadline) {
                    log.error("worker {}: gave up writing run {} (entry {}) after {}: its result stays at {}", worker,
                            l.runId(), l.entryId(), writeRetry, attempt.resultDir(), e);
                    add(unrecorded, l.runId());
                    return;
                }
                log.warn("worker {}: cannot write run {} yet (retrying in {} ms): {}", worker, l.runId(), waitMs,
                        e.getMessage());
                try {
                    Thread.sleep(waitMs);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    add(unrecorded, l.runId());
                    return;
                }
                waitMs = Math.min(waitMs * 2, 30_000);
            } catch (HarnessException e) {
                log.error("worker {}: cannot write run {} (entry {}); its result stays at {}", worker, l.runId(),
                        l.entryId(), attempt.resultDir(), e);
                add(unrecorded, l.runId());
                return;
            }
        }
    }

    PgWorker.Summary summary(int claimed, boolean stopped) {
        synchronized (this) {
            return new PgWorker.Summary(claimed, recorded.get(), leaseLost, unrecorded, stopped);
        }
    }

    private void add(List<String> list, String runId) {
        synchronized (this) {
            list.add(runId);
        }
    }
}
