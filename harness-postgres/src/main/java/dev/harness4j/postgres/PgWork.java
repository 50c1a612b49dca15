package dev.harness4j.postgres;

import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Outcome;
import dev.harness4j.core.queue.WorkerLoop;
import dev.harness4j.postgres.internal.LocalClaims;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link PgQueue} as core's {@link WorkerLoop.Source}, what a {@link PgWorker} runs: opening
 * migrates the schema, sweeps a dead worker's leftovers and starts the heartbeat; a look reaps
 * expired leases and claims (the database applies the caps and provider pauses); an attempt runs
 * through the executor and is written by the {@link AttemptWriter}. An unreachable database
 * makes a look claim nothing (the running attempts go on), never fails the loop.
 */
@SuppressWarnings("deprecation") // PgWorker.Executor: the form both seams are turned into here
final class PgWork implements WorkerLoop.Source<RunningAttempt> {
    private static final Logger log = LoggerFactory.getLogger(PgWorker.class);

    private final PgQueue queue;
    private final PgWorker.Executor executor;
    private final String name;
    private final int concurrency;
    private final Duration lease;
    private final Duration heartbeat;
    private final boolean exitWhenIdle;
    private final AttemptWriter writer;
    private final LocalClaims claims; // null: the executor has no local state dir
    private final ScheduledExecutorService beat;
    private final Map<String, RunningAttempt> active = new ConcurrentHashMap<>(); // runId -> attempt
    private final AtomicInteger claimed = new AtomicInteger();

    PgWork(PgQueue queue, PgWorker.Executor executor, String name, int concurrency, Duration lease, Duration heartbeat,
            boolean exitWhenIdle, AttemptWriter writer, ScheduledExecutorService beat) {
        this.queue = queue;
        this.executor = executor;
        this.name = name;
        this.concurrency = concurrency;
        this.lease = lease;
        this.heartbeat = heartbeat;
        this.exitWhenIdle = exitWhenIdle;
        this.writer = writer;
        this.beat = beat;
        this.claims = executor.stateDir() == null ? null : new LocalClaims(executor.stateDir());
    }

    int claimed() {
        return claimed.get();
    }

    @Override
    public void open() {
        queue.database().migrate();
        if (claims != null) {
            LeftoverSweep.sweep(claims, executor.stateDir(), queue, name);
        }
        LeaseHeartbeat renewal = new LeaseHeartbeat(queue, executor, name, lease, active);
        long beatMs = heartbeat.toMillis();
        beat.scheduleWithFixedDelay(renewal::renew, beatMs, beatMs, TimeUnit.MILLISECONDS);
        log.info("worker {} on {}: concurrency {}, lease {}, heartbeat {}", name, queue.database().url(), concurrency,
                lease, heartbeat);
    }

    @Override
    public WorkerLoop.Look look(Instant now, int free, BooleanSupplier stopping, Consumer<RunningAttempt> start) {
        boolean claimedOne = false;
        try {
            queue.reapExpired().forEach((id, state) -> log.info("worker {}: the lease on entry {} expired; now {}",
                    name, id, state));
            for (int i = 0; i < free && !stopping.getAsBoolean(); i++) {
                var got = queue.claim(name, lease);
                if (got.isEmpty()) {
                    break;
                }
                start.accept(launch(got.get()));
                claimedOne = true;
            }
            if (exitWhenIdle && active.isEmpty() && !claimedOne && queue.counts(null).active() == 0) {
                return WorkerLoop.Look.DRAINED;
            }
        } catch (DatabaseUnavailableException e) {
            log.warn("worker {}: the database is unreachable; the {} running attempts go on, claims resume when it"
                    + " is back: {}", name, active.size(), e.getMessage());
        }
        return claimedOne ? new WorkerLoop.Look(false, now) : WorkerLoop.Look.AGAIN; // after a claim: again at once
    }

    private RunningAttempt launch(PgLease l) {
        RunningAttempt r = new RunningAttempt(l);
        if (claims != null) {
            claims.add(l.runId(), l.entryId(), name); // before the run starts: a kill -9 from here on is swept at restart
        }
        active.put(l.runId(), r);
        claimed.incrementAndGet();
        log.debug("worker {}: claimed entry {} as run {} (attempt {})", name, l.entryId(), l.runId(), l.attempt());
        return r;
    }

    @Override
    public String runId(RunningAttempt r) {
        return r.lease.runId();
    }

    @Override
    public boolean bail(String runId) {
        return executor.bail(runId);
    }

    @Override
    public void work(RunningAttempt r, WorkerLoop.Control loop) {
        PgLease l = r.lease;
        PgWorker.Attempt attempt;
        try {
            attempt = executor.run(l.runId(), l.spec());
            if (attempt == null) {
                throw new IllegalStateException("the executor returned nothing for run " + l.runId());
            }
        } catch (Exception | Error e) {
            log.error("worker {}: run {} of entry {} failed outside the harness", name, l.runId(), l.entryId(), e);
            attempt = PgWorker.Attempt.of(HarnessResult.builder(Outcome.ERROR, l.spec().model())
                    .reason("the runner failed: " + e).build());
        }
        r.executing = false;
        try {
            writer.record(l, attempt);
        } finally {
            if (claims != null) {
                claims.remove(l.runId());
            }
            active.remove(l.runId());
        }
    }
}
