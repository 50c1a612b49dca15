package dev.harness4j.postgres;

import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.RunSpec;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.RunRecord;
import dev.harness4j.core.queue.RetryPolicy;
import dev.harness4j.postgres.internal.Hosts;
import dev.harness4j.postgres.internal.LocalClaims;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A worker on one machine: claims entries from the shared {@link PgQueue}, runs them, renews its
 * leases with a heartbeat, and records each attempt with its result in the database.
 *
 * <pre>{@code
 * try (PgWorker w = PgWorker.builder(new PgQueue(db), PgWorker.Executor.of(runner))
 *         .concurrency(2).exitWhenIdle(true).build()) {
 *     PgWorker.Summary s = w.run();    // blocks until the queue is empty (or stop())
 * }
 * }</pre>
 *
 * <p>What happens when things go wrong:
 * <ul>
 *   <li>the worker dies or freezes: its leases expire and any worker queues its entries again
 *       ({@link PgQueue#reapExpired()}, attempt counted);
 *   <li>the worker was killed with -9 and a worker starts again on its local state dir
 *       ({@link Executor#stateDir()}): before claiming, that one stops the dead runs' surviving
 *       processes, removes their workspaces and half-written results ({@code
 *       core.workspace.RunLeftovers}) and ends their leases at once ({@link PgQueue#expireLease});
 *       it finds them in {@code <stateDir>/pg-worker/claims/}, where every worker records its
 *       runs from claim to written end. Runs of a live worker sharing the state dir are left alone;
 *   <li>the worker comes back after its lease was taken over: the heartbeat finds the lease gone
 *       and bails the run, and the result write, which checks the lease in its own transaction,
 *       writes nothing ({@link Summary#leaseLost()});
 *   <li>the database goes away mid-run: the run finishes, its result stays on the worker's disk
 *       (the state dir), and the write is retried with a doubling wait for up to {@link
 *       Builder#writeRetry}; the worker never runs an attempt twice. A write that never lands is
 *       listed in {@link Summary#unrecorded()}.
 * </ul>
 */
public final class PgWorker implements AutoCloseable {
    /** How long a lease lasts without a heartbeat: 2 min. */
    public static final Duration DEFAULT_LEASE = Duration.ofMinutes(2);
    /** How often the leases are renewed: 30 s. */
    public static final Duration DEFAULT_HEARTBEAT = Duration.ofSeconds(30);
    /** How often an idle worker looks at the queue: 1 s. */
    public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofSeconds(1);
    /** How long a result write is retried while the database is unreachable: 30 min. */
    public static final Duration DEFAULT_WRITE_RETRY = Duration.ofMinutes(30);
    /** How long {@link #close()} waits for running attempts after bailing them: 60 s. */
    public static final Duration DEFAULT_CLOSE_TIMEOUT = Duration.ofSeconds(60);

    private static final Logger log = LoggerFactory.getLogger(PgWorker.class);

    /** Runs one attempt; the seam to {@link HarnessRunner}. */
    public interface Executor {
        /** Runs {@code spec} as run {@code runId}. */
        Attempt run(String runId, RunSpec spec) throws Exception;

        /** Bails the run from another thread; false when it is not running. */
        default boolean bail(String runId) {
            return false;
        }

        /**
         * The local state dir runs write into, or {@code null} (then the worker keeps no record of
         * its claims there and sweeps nothing at start).
         */
        default Path stateDir() {
            return null;
        }

        /** Runs through a {@link HarnessRunner}; the result directory is under the runner's state dir. */
        static Executor of(HarnessRunner runner) {
            Objects.requireNonNull(runner, "runner");
            return new Executor() {
                @Override
                public Attempt run(String runId, RunSpec spec) {
                    RunRecord r = runner.run(spec, runId);
                    return new Attempt(r.result(), runner.results().resultsDir(), r.resultDir());
                }

                @Override
                public boolean bail(String runId) {
                    return runner.bail(runId);
                }

                @Override
                public Path stateDir() {
                    return runner.stateDir();
                }
            };
        }
    }

    /**
     * What one attempt produced.
     *
     * @param result the harness result
     * @param resultsRoot the {@code results} directory on this machine, or {@code null}
     * @param resultDir the run's result directory (with its meta.json), or {@code null} when the
     *     attempt wrote none (then only the queue state is recorded)
     */
    public record Attempt(HarnessResult result, Path resultsRoot, Path resultDir) {
        public Attempt {
            Objects.requireNonNull(result, "result");
        }

        public static Attempt of(HarnessResult result) {
            return new Attempt(result, null, null);
        }
    }

    /**
     * What {@link #run()} did.
     *
     * @param claimed attempts claimed and started
     * @param recorded attempts whose end (and result) was written
     * @param leaseLost run ids whose lease was taken over: nothing written for them
     * @param unrecorded run ids whose end could not be written (the database stayed away): their
     *     result is on this machine's disk only
     * @param stopped whether {@link #stop()} ended the loop
     */
    public record Summary(int claimed, int recorded, List<String> leaseLost, List<String> unrecorded, boolean stopped) {
        public Summary {
            leaseLost = List.copyOf(leaseLost);
            unrecorded = List.copyOf(unrecorded);
        }
    }

    private final PgQueue queue;
    private final Executor executor;
    private final String name;
    private final int concurrency;
    private final Duration lease;
    private final Duration heartbeat;
    private final Duration pollInterval;
    private final Duration writeRetry;
    private final RetryPolicy retry;
    private final ArtifactCaps caps;
    private final boolean exitWhenIdle;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final Map<String, RunningAttempt> active = new ConcurrentHashMap<>(); // runId -> attempt
    private final ExecutorService pool;
    private final ScheduledExecutorService beat;
    private final AtomicInteger claimed = new AtomicInteger();
    private final AttemptWriter writer;
    private final LeaseHeartbeat heartbeatTask;
    private final LocalClaims claims; // null: the executor has no local state dir
    private volatile boolean stop;
    private boolean closed;

    private PgWorker(Builder b) {
        this.queue = b.queue;
        this.executor = b.executor;
        this.name = b.name != null ? b.name : defaultName();
        this.concurrency = b.concurrency;
        this.lease = b.lease;
        this.heartbeat = b.heartbeat;
        this.pollInterval = b.pollInterval;
        this.writeRetry = b.writeRetry;
        this.retry = b.retry;
        this.caps = b.caps;
        this.exitWhenIdle = b.exitWhenIdle;
        AtomicInteger n = new AtomicInteger();
        this.pool = Executors.newFixedThreadPool(concurrency, r -> daemon(r, "harness4j-pg-run-" + n.incrementAndGet()));
        this.writer = new AttemptWriter(queue, name, retry, caps, writeRetry, pollInterval);
        this.heartbeatTask = new LeaseHeartbeat(queue, executor, name, lease, active);
        this.claims = executor.stateDir() == null ? null : new LocalClaims(executor.stateDir());
        this.beat = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "harness4j-pg-heartbeat"));
    }

    public static Builder builder(PgQueue queue, Executor executor) {
        return new Builder(queue, executor);
    }

    /** This worker's name, as leases and results record it. */
    public String name() {
        return name;
    }

    /**
     * Migrates the schema (refusing a newer one), then claims and runs entries until {@link
     * #stop()}, or, with {@link Builder#exitWhenIdle}, until no entry is queued or running
     * anywhere. Blocks the calling thread.
     *
     * @throws DatabaseUnavailableException when the database cannot be reached at start
     * @throws SchemaTooNewException when the database holds a newer schema
     */
    public Summary run() throws InterruptedException {
        queue.database().migrate();
        if (claims != null) {
            LeftoverSweep.sweep(claims, executor.stateDir(), queue, name);
        }
        long beatMs = heartbeat.toMillis();
        beat.scheduleWithFixedDelay(heartbeatTask::renew, beatMs, beatMs, TimeUnit.MILLISECONDS);
        log.info("worker {} on {}: concurrency {}, lease {}, heartbeat {}", name, queue.database().url(), concurrency,
                lease, heartbeat);
        while (!stop) {
            boolean claimedOne = false;
            try {
                queue.reapExpired().forEach((id, state) -> log.info("worker {}: the lease on entry {} expired; now {}",
                        name, id, state));
                while (!stop && active.size() < concurrency) {
                    var got = queue.claim(name, lease);
                    if (got.isEmpty()) {
                        break;
                    }
                    launch(got.get());
                    claimedOne = true;
                }
                if (exitWhenIdle && active.isEmpty() && !claimedOne && queue.counts(null).active() == 0) {
                    break;
                }
            } catch (DatabaseUnavailableException e) {
                log.warn("worker {}: the database is unreachable; the {} running attempts go on, claims resume when it"
                        + " is back: {}", name, active.size(), e.getMessage());
            }
            if (!claimedOne) {
                awaitChange(pollInterval);
            }
        }
        awaitActiveEnd();
        return writer.summary(claimed.get(), stop);
    }

    private void launch(PgLease l) {
        RunningAttempt r = new RunningAttempt(l);
        if (claims != null) {
            claims.add(l.runId(), l.entryId(), name); // before the run starts: a kill -9 from here on is swept at restart
        }
        active.put(l.runId(), r);
        claimed.incrementAndGet();
        log.debug("worker {}: claimed entry {} as run {} (attempt {})", name, l.entryId(), l.runId(), l.attempt());
        pool.execute(() -> work(r));
    }

    private void work(RunningAttempt r) {
        PgLease l = r.lease;
        Attempt attempt;
        try {
            attempt = executor.run(l.runId(), l.spec());
            if (attempt == null) {
                throw new IllegalStateException("the executor returned nothing for run " + l.runId());
            }
        } catch (Exception | Error e) {
            log.error("worker {}: run {} of entry {} failed outside the harness", name, l.runId(), l.entryId(), e);
            attempt = Attempt.of(HarnessResult.builder(dev.harness4j.api.Outcome.ERROR, l.spec().model())
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
            signal();
        }
    }

    private void awaitChange(Duration d) throws InterruptedException {
        lock.lock();
        try {
            changed.await(d.toMillis(), TimeUnit.MILLISECONDS);
        } finally {
            lock.unlock();
        }
    }

    private void signal() {
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void awaitActiveEnd() throws InterruptedException {
        while (!active.isEmpty()) {
            awaitChange(pollInterval);
        }
    }

    /** Ends {@link #run()} once the running attempts finish; claims nothing new. */
    public void stop() {
        stop = true;
        signal();
    }

    /** Stops, bails the running attempts, waits up to {@link #DEFAULT_CLOSE_TIMEOUT}, and stops the threads. */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        stop();
        active.keySet().forEach(executor::bail);
        pool.shutdown();
        try {
            if (!pool.awaitTermination(DEFAULT_CLOSE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                log.warn("worker {}: {} attempts still running after {}", name, active.size(), DEFAULT_CLOSE_TIMEOUT);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        beat.shutdownNow();
        pool.shutdownNow();
    }

    private static Thread daemon(Runnable r, String threadName) {
        Thread t = new Thread(r, threadName);
        t.setDaemon(true);
        return t;
    }

    static String defaultName() {
        byte[] b = new byte[3];
        new SecureRandom().nextBytes(b);
        return Hosts.name() + "-" + ProcessHandle.current().pid() + "-" + HexFormat.of().formatHex(b);
    }

    /** Builds a {@link PgWorker}. */
    public static final class Builder {
        private final PgQueue queue;
        private final Executor executor;
        private String name;
        private int concurrency = 1;
        private Duration lease = DEFAULT_LEASE;
        private Duration heartbeat = DEFAULT_HEARTBEAT;
        private Duration pollInterval = DEFAULT_POLL_INTERVAL;
        private Duration writeRetry = DEFAULT_WRITE_RETRY;
        private RetryPolicy retry = RetryPolicy.DEFAULT;
        private ArtifactCaps caps = ArtifactCaps.DEFAULT;
        private boolean exitWhenIdle;

        private Builder(PgQueue queue, Executor executor) {
            this.queue = Objects.requireNonNull(queue, "queue");
            this.executor = Objects.requireNonNull(executor, "executor");
        }

        /** The worker's name in leases and results (default: host, pid and a random suffix). */
        public Builder name(String value) {
            this.name = Objects.requireNonNull(value, "name");
            return this;
        }

        public Builder concurrency(int value) {
            if (value < 1) {
                throw new IllegalArgumentException("concurrency must be >= 1, was " + value);
            }
            this.concurrency = value;
            return this;
        }

        /** How long a lease lasts without a heartbeat (default {@link #DEFAULT_LEASE}). */
        public Builder lease(Duration value) {
            this.lease = positive(value, "lease");
            return this;
        }

        /** How often leases are renewed (default {@link #DEFAULT_HEARTBEAT}); must be below the lease. */
        public Builder heartbeat(Duration value) {
            this.heartbeat = positive(value, "heartbeat");
            return this;
        }

        public Builder pollInterval(Duration value) {
            this.pollInterval = positive(value, "pollInterval");
            return this;
        }

        /** How long a result write is retried while the database is away (default {@link #DEFAULT_WRITE_RETRY}). */
        public Builder writeRetry(Duration value) {
            this.writeRetry = positive(value, "writeRetry");
            return this;
        }

        public Builder retryPolicy(RetryPolicy value) {
            this.retry = Objects.requireNonNull(value, "retryPolicy");
            return this;
        }

        public Builder artifactCaps(ArtifactCaps value) {
            this.caps = Objects.requireNonNull(value, "artifactCaps");
            return this;
        }

        /** Whether {@link #run()} returns once nothing is queued or running anywhere (default: run until stopped). */
        public Builder exitWhenIdle(boolean value) {
            this.exitWhenIdle = value;
            return this;
        }

        public PgWorker build() {
            if (heartbeat.compareTo(lease) >= 0) {
                throw new IllegalStateException("the heartbeat (" + heartbeat + ") must be shorter than the lease ("
                        + lease + "), or every lease expires between two renewals");
            }
            return new PgWorker(this);
        }

        private static Duration positive(Duration d, String what) {
            if (d == null || d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException(what + " must be > 0, was " + d);
            }
            return d;
        }
    }
}
