package dev.harness4j.postgres;

import dev.harness4j.api.HarnessListener;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.RunSpec;
import dev.harness4j.core.AfterHarness;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.ResultIndex;
import dev.harness4j.core.RunRecord;
import dev.harness4j.core.queue.QueueProcessor;
import dev.harness4j.core.queue.RetryPolicy;
import dev.harness4j.core.queue.RunLauncher;
import dev.harness4j.core.queue.WorkerLoop;
import dev.harness4j.postgres.internal.Hosts;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * A worker on one machine: claims entries from the shared {@link PgQueue}, runs them, renews its
 * leases with a heartbeat, and records each attempt with its result in the database.
 *
 * <pre>{@code
 * try (PgWorker w = PgWorker.builder(new PgQueue(db), RunLauncher.of(runner))
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


    /**
     * Runs one attempt: the form of the runner seam before core's {@link RunLauncher}, kept for one
     * release ({@link #of(RunLauncher)} turns a launcher into one).
     *
     * @deprecated implement {@link RunLauncher} and use {@link PgWorker#builder(PgQueue, RunLauncher)}
     */
    @Deprecated
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
            return of(RunLauncher.of(runner));
        }

        /**
         * Runs through {@code runs}, with no listener and no after-harness step; the results
         * directory is the one under the launcher's {@linkplain RunLauncher#stateDir() state dir}.
         */
        static Executor of(RunLauncher runs) {
            Objects.requireNonNull(runs, "runs");
            return new Executor() {
                @Override
                public Attempt run(String runId, RunSpec spec) throws Exception {
                    RunRecord r = runs.run(spec, runId, HarnessListener.NONE, AfterHarness.NONE);
                    Path state = runs.stateDir();
                    return new Attempt(r.result(), state == null ? null : ResultIndex.of(state).resultsDir(),
                            r.resultDir());
                }

                @Override
                public boolean bail(String runId) {
                    return runs.bail(runId);
                }

                @Override
                public Path stateDir() {
                    return runs.stateDir();
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
    private final String name;
    private final ScheduledExecutorService beat;
    private final AttemptWriter writer;
    private final PgWork work;
    private final WorkerLoop<RunningAttempt> loop;

    private PgWorker(Builder b) {
        this.queue = b.queue;
        this.name = b.name != null ? b.name : defaultName();
        this.writer = new AttemptWriter(queue, name, b.retry, b.caps, b.writeRetry, b.pollInterval);
        this.beat = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "harness4j-pg-heartbeat"));
        this.work = new PgWork(queue, b.executor, name, b.concurrency, b.lease, b.heartbeat, b.exitWhenIdle, writer, beat);
        this.loop = WorkerLoop.builder(work).concurrency(b.concurrency).pollInterval(b.pollInterval)
                .threadName("harness4j-pg-run").build();
    }

    /** A worker running the claimed entries through {@code runs} (usually {@link RunLauncher#of}). */
    public static Builder builder(PgQueue queue, RunLauncher runs) {
        return new Builder(queue, Executor.of(runs));
    }

    /**
     * A worker running the claimed entries through an {@link Executor}.
     *
     * @deprecated use {@link #builder(PgQueue, RunLauncher)}
     */
    @Deprecated
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
     * anywhere. Blocks the calling thread. The loop is core's {@link WorkerLoop}, the one a
     * file queue's {@code QueueProcessor} runs too.
     *
     * @throws DatabaseUnavailableException when the database cannot be reached at start
     * @throws SchemaTooNewException when the database holds a newer schema
     */
    public Summary run() throws InterruptedException {
        boolean stopped = loop.run();
        return writer.summary(work.claimed(), stopped);
    }

    /** Ends {@link #run()} once the running attempts finish; claims nothing new. */
    public void stop() {
        loop.stop(QueueProcessor.StopMode.FINISH);
    }

    /** Stops, bails the running attempts, waits up to {@link #DEFAULT_CLOSE_TIMEOUT}, and stops the threads. */
    @Override
    public void close() {
        loop.close();
        beat.shutdownNow();
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
