package dev.harness4j.core.queue;

import dev.harness4j.api.HarnessException;
import dev.harness4j.api.HarnessListener;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.RunSpec;
import dev.harness4j.core.AfterHarness;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.internal.util.Checks;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Runs a {@link RunQueue}'s entries: sequentially by default, or several at once under caps per
 * harness and per provider; with a pause between
 * runs that a stop cuts short at once; no run of a rate-limited provider before its reset time;
 * and a graceful stop that lets running entries finish or bails them.
 *
 * <pre>{@code
 * try (QueueProcessor p = QueueProcessor.builder(queue, RunLauncher.of(runner))
 *         .concurrency(2).providerCap("anthropic", 1).pause(Duration.ofSeconds(5)).build()) {
 *     QueueProcessor.Summary s = p.runAll();   // blocks until nothing is queued any more
 * }
 * }</pre>
 *
 * <p>{@link #runAll()} first {@linkplain RunQueue#recover() recovers} what a crashed process left
 * running (unless turned off). The launcher must run the spec under the run id it is given
 * (the run marker and the workspace {@code <stateDir>/runs/<runId>} are what recovery cleans).
 * The loop itself is the {@link WorkerLoop} a PostgreSQL worker runs too.
 *
 * <p><b>Caps are exact within one processor and best-effort across processes.</b> Before it
 * claims, a processor counts the {@code running} entries of every process sharing the queue, so
 * the others' runs count against its caps; but the count and the claim are not one atomic step,
 * so processes claiming at the same moment may each take the same free slots: a cap may then be
 * exceeded (at worst by the cap again per other process) until those runs end. (Entries left {@code running}
 * by a dead process count until {@link RunQueue#recover()} re-queues them.) For a hard limit
 * against a provider, run its entries from one processor.
 */
public final class QueueProcessor implements AutoCloseable {
    /** How often the processor looks at the queue when nothing signals a change: 500 ms. */
    public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofMillis(500);
    /** How long {@link #close()} waits for bailed runs to end: 60 s. */
    public static final Duration DEFAULT_CLOSE_TIMEOUT = WorkerLoop.DEFAULT_CLOSE_TIMEOUT;

    /**
     * Runs one attempt and returns its result: the form of the runner seam before {@link
     * RunLauncher}, kept for one release (a {@link RunLauncher} is turned into one by {@link
     * #of(RunLauncher)}).
     *
     * @deprecated implement {@link RunLauncher} and use {@link QueueProcessor#builder(RunQueue, RunLauncher)}
     */
    @Deprecated
    public interface Executor {
        /** Runs {@code spec} as run {@code runId} and returns its result; should not throw. */
        HarnessResult run(String runId, RunSpec spec) throws Exception;

        /** Bails the run from another thread; false when it is not running. */
        default boolean bail(String runId) {
            return false;
        }

        /**
         * Runs entries through a {@link HarnessRunner} under the queue's run ids (so recovery
         * finds their marker and workspace); the runner's result is on disk when this returns.
         */
        static Executor of(HarnessRunner runner) {
            return of(RunLauncher.of(runner));
        }

        /** Runs entries through {@code runs}, with no listener and no after-harness step. */
        static Executor of(RunLauncher runs) {
            Objects.requireNonNull(runs, "runs");
            return new Executor() {
                @Override
                public HarnessResult run(String runId, RunSpec spec) throws Exception {
                    return runs.run(spec, runId, HarnessListener.NONE, AfterHarness.NONE).result();
                }

                @Override
                public boolean bail(String runId) {
                    return runs.bail(runId);
                }
            };
        }
    }

    /** Hears about entries starting and ending; called from the processor's threads, keep it quick. */
    public interface Listener {
        default void started(QueueEntry entry) {}

        /** @param result the attempt's result, or {@code null} when the executor threw */
        default void finished(QueueEntry after, HarnessResult result) {}
    }

    /** What a stop does with running entries. */
    public enum StopMode {
        /** Start nothing new; let the running entries finish. */
        FINISH,
        /** Start nothing new; bail the running entries (they become {@code interrupted}). */
        BAIL
    }

    /**
     * What {@link #runAll()} did.
     *
     * @param started attempts started
     * @param done entries that ended {@code done}
     * @param failed entries that ended {@code failed}
     * @param retried attempts queued again for a retry
     * @param interrupted entries that ended {@code interrupted}
     * @param stopped whether a stop ended the loop
     * @param unrecorded ids of entries whose attempt ended but could not be written to the queue
     *     (another process kept the entry locked, say): they stay {@code running} under this
     *     process until {@link RunQueue#recover()} runs after it has exited
     */
    public record Summary(int started, int done, int failed, int retried, int interrupted, boolean stopped,
            List<String> unrecorded) {
        public Summary {
            unrecorded = List.copyOf(unrecorded);
        }
    }

    private final WorkerLoop<QueueEntry> loop;
    private final QueueWork work;

    private QueueProcessor(Builder b) {
        this.work = new QueueWork(b.queue, b.executor, new Scheduler(b.queue, b.harnessCaps, b.providerCaps), b.listener,
                b.recoverOnStart, b.pollInterval, b.clock);
        this.loop = WorkerLoop.builder(work).concurrency(b.concurrency).pollInterval(b.pollInterval).pause(b.pause)
                .clock(b.clock).threadName("harness4j-queue").build();
    }

    /** A processor running the entries through {@code runs} (usually {@link RunLauncher#of}). */
    public static Builder builder(RunQueue queue, RunLauncher runs) {
        return new Builder(queue, Executor.of(runs));
    }

    /**
     * A processor running the entries through an {@link Executor}.
     *
     * @deprecated use {@link #builder(RunQueue, RunLauncher)}
     */
    @Deprecated
    public static Builder builder(RunQueue queue, Executor executor) {
        return new Builder(queue, executor);
    }

    /**
     * Runs entries until none is queued (waiting for backoffs and rate-limit resets) and none of
     * this processor's runs is running, or until {@link #stop}. Blocks the calling thread.
     *
     * <p>Reading the queue and claiming happen outside the processor's lock, so a {@link #stop}
     * returns at once even while a claim waits for an entry another process holds; such an
     * entry is skipped and tried again later, and a claim waiting on it when the processor stops
     * gives up within {@link FileQueueStore#GIVE_UP_CHECK}, so this returns promptly after a stop.
     *
     * @throws HarnessException when the queue can no longer be read (its directory was deleted,
     *     say): the running entries are bailed first, and nothing is started after
     */
    public Summary runAll() throws InterruptedException {
        boolean stopped = loop.run();
        return work.tally().summary(stopped);
    }

    /**
     * Stops the processor: nothing new starts, the pause is cut short, and running entries finish
     * ({@link StopMode#FINISH}) or are bailed ({@link StopMode#BAIL}). Returns at once, even while
     * {@link #runAll()} waits for another process's lock on an entry; {@link #runAll()} returns when
     * the running entries have ended. A later BAIL upgrades a FINISH.
     */
    public void stop(StopMode mode) {
        loop.stop(mode);
    }

    /** How many of this processor's runs are running now. */
    public int runningCount() {
        return loop.runningCount();
    }

    /** Bails what runs, waits up to {@link #DEFAULT_CLOSE_TIMEOUT} for it to end, and stops the threads; idempotent. */
    @Override
    public void close() {
        loop.close();
    }

    /** Builds a {@link QueueProcessor}. */
    public static final class Builder {
        private final RunQueue queue;
        private final Executor executor;
        private int concurrency = 1;
        private final Map<String, Integer> harnessCaps = new HashMap<>();
        private final Map<String, Integer> providerCaps = new HashMap<>();
        private Duration pause = Duration.ZERO;
        private Duration pollInterval = DEFAULT_POLL_INTERVAL;
        private Listener listener = new Listener() {};
        private boolean recoverOnStart = true;
        private Clock clock = Clock.systemUTC();

        private Builder(RunQueue queue, Executor executor) {
            this.queue = Objects.requireNonNull(queue, "queue");
            this.executor = Objects.requireNonNull(executor, "executor");
        }

        /** How many entries run at once (default 1: sequential). */
        public Builder concurrency(int value) {
            if (value < 1) {
                throw new IllegalArgumentException("concurrency must be >= 1, was " + value);
            }
            this.concurrency = value;
            return this;
        }

        /**
         * At most {@code cap} runs of this harness at once: exact in this processor, best-effort over
         * every process sharing the queue (see the class doc).
         */
        public Builder harnessCap(String harness, int cap) {
            harnessCaps.put(Objects.requireNonNull(harness, "harness"), requireCap(cap));
            return this;
        }

        /**
         * At most {@code cap} runs against this provider at once: exact in this processor,
         * best-effort over every process sharing the queue (see the class doc).
         */
        public Builder providerCap(String provider, int cap) {
            providerCaps.put(Objects.requireNonNull(provider, "provider"), requireCap(cap));
            return this;
        }

        /** The pause after a run ends before the next one starts (default none); a stop cuts it short. */
        public Builder pause(Duration value) {
            Objects.requireNonNull(value, "pause");
            if (value.isNegative()) {
                throw new IllegalArgumentException("pause must be >= 0, was " + value);
            }
            this.pause = value;
            return this;
        }

        public Builder pollInterval(Duration value) {
            this.pollInterval = Checks.positive(value, "pollInterval");
            return this;
        }

        public Builder listener(Listener value) {
            this.listener = Objects.requireNonNull(value, "listener");
            return this;
        }

        /** Whether {@link #runAll()} first calls {@link RunQueue#recover()} (default true). */
        public Builder recoverOnStart(boolean value) {
            this.recoverOnStart = value;
            return this;
        }

        public Builder clock(Clock value) {
            this.clock = Objects.requireNonNull(value, "clock");
            return this;
        }

        private static int requireCap(int cap) {
            if (cap < 1) {
                throw new IllegalArgumentException("a cap must be >= 1, was " + cap);
            }
            return cap;
        }

        public QueueProcessor build() {
            return new QueueProcessor(this);
        }
    }
}
