package dev.harness4j.core.queue;

import dev.harness4j.api.HarnessException;
import dev.harness4j.core.internal.util.Checks;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one worker loop behind {@link QueueProcessor} (the file queue) and the PostgreSQL worker:
 * look at the queue, claim what fits into the free slots, run each claim on a thread of its own,
 * wait until a run ends, a stop, or the time the queue said to look again; on a stop, start
 * nothing more and let the runs finish or bail them. What a queue is (how to claim, how to record
 * an attempt's end) is the {@link Source}'s; the loop holds the threads, the slots and the stop.
 *
 * <pre>{@code
 * try (WorkerLoop<MyClaim> loop = WorkerLoop.builder(source).concurrency(4).build()) {
 *     boolean stopped = loop.run();   // until the source says it is drained (or a stop)
 * }
 * }</pre>
 *
 * <p>If a look fails (the source throws a {@link HarnessException}: its queue can no longer be
 * read), the loop starts nothing more, bails what runs, and {@link #run()} throws once they ended.
 *
 * @param <C> what the source hands out for one attempt (a claimed entry, a lease)
 */
public final class WorkerLoop<C> implements AutoCloseable {
    /** How long {@link #close()} waits for bailed runs to end: 60 s. */
    public static final Duration DEFAULT_CLOSE_TIMEOUT = Duration.ofSeconds(60);

    private static final Logger log = LoggerFactory.getLogger(WorkerLoop.class);

    /** What the loop claims from and records to: the seam a queue implements. */
    public interface Source<C> {
        /** Called once by {@link #run()} before the first look (recovery, migrations, sweeps). */
        default void open() {}

        /**
         * One look at the queue: claims up to {@code free} attempts (none when {@code free} is 0)
         * and hands each to {@code start} at once, in the order they should run.
         *
         * @param stopping true once the loop stops: a claim that waits (for a lock, say) should
         *     give up then
         * @throws HarnessException when the queue cannot be read any more: the loop fails
         */
        Look look(Instant now, int free, BooleanSupplier stopping, Consumer<C> start);

        /** The run id of a claim (what {@link #bail} is called with). */
        String runId(C claim);

        /**
         * Runs the claim and records how it ended, on one of the loop's threads; should not
         * throw. {@code loop} tells whether the loop failed and lets it look again now.
         */
        void work(C claim, Control loop);

        /** Bails a running attempt from another thread; false when it is not running. */
        boolean bail(String runId);
    }

    /**
     * What a look found.
     *
     * @param drained nothing is left to wait for (no entry queued, not even one due later): the
     *     loop ends once none of its runs runs
     * @param wakeAt when to look again at the latest ({@code null}: after the poll interval)
     */
    public record Look(boolean drained, Instant wakeAt) {
        /** Something is or may become due: look again after the poll interval. */
        public static final Look AGAIN = new Look(false, null);
        /** Nothing left to wait for. */
        public static final Look DRAINED = new Look(true, null);
    }

    /** What a {@link Source#work} call may ask of the loop. */
    public interface Control {
        /** Whether the loop failed (a look threw): then a retried write should give up. */
        boolean failed();

        /** Lets the loop look at the queue now rather than at its next wake-up. */
        void wake();
    }

    private final Source<C> source;
    private final int concurrency;
    private final Duration pollInterval;
    private final Duration pause;
    private final Clock clock;
    private final ExecutorService workers;
    private final Control control = new Control() {
        @Override
        public boolean failed() {
            return fatal != null;
        }

        @Override
        public void wake() {
            signal(true);
        }
    };

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final Set<String> active = new LinkedHashSet<>(); // run ids
    private QueueProcessor.StopMode stop;
    private volatile HarnessException fatal;
    private boolean dirty; // something changed since the loop last looked
    private Instant nextStartAt = Instant.MIN;
    private boolean closed;

    private WorkerLoop(Builder<C> b) {
        this.source = b.source;
        this.concurrency = b.concurrency;
        this.pollInterval = b.pollInterval;
        this.pause = b.pause;
        this.clock = b.clock;
        AtomicInteger n = new AtomicInteger();
        String prefix = b.threadName;
        this.workers = Executors.newFixedThreadPool(concurrency, r -> {
            Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    public static <C> Builder<C> builder(Source<C> source) {
        return new Builder<>(source);
    }

    /**
     * Claims and runs until the source is drained and none of this loop's runs runs, or until
     * {@link #stop}. Blocks the calling thread.
     *
     * @return true when a stop ended it
     * @throws HarnessException when a look failed: the running attempts were bailed first
     */
    public boolean run() throws InterruptedException {
        source.open();
        while (true) {
            Instant now;
            boolean idleBefore;
            int free;
            lock.lock();
            try {
                if (stop != null || fatal != null) {
                    awaitActiveEnd();
                    if (fatal != null) {
                        throw fatal;
                    }
                    return true;
                }
                dirty = false;
                now = clock.instant();
                // read before the look: while nothing of ours runs, nothing of ours changes the queue
                idleBefore = active.isEmpty();
                free = now.isBefore(nextStartAt) ? 0 : concurrency - active.size();
            } finally {
                lock.unlock();
            }
            Instant wakeAt = now.plus(pollInterval);
            try {
                Look look = source.look(now, free, this::stopping, this::launch);
                if (look.drained() && idleBefore) {
                    return false;
                }
                if (look.wakeAt() != null && look.wakeAt().isBefore(wakeAt)) {
                    wakeAt = look.wakeAt();
                }
            } catch (HarnessException e) {
                failFast(e);
                continue;
            }
            lock.lock();
            try {
                if (now.isBefore(nextStartAt) && nextStartAt.isBefore(wakeAt)) {
                    wakeAt = nextStartAt;
                }
                long waitMs = Math.max(1, Duration.between(clock.instant(), wakeAt).toMillis());
                if (!dirty && stop == null && fatal == null) {
                    changed.await(waitMs, TimeUnit.MILLISECONDS);
                }
            } finally {
                lock.unlock();
            }
        }
    }

    /** Under the lock: waits for this loop's runs to end, bailing them on a BAIL stop or a failure. */
    private void awaitActiveEnd() throws InterruptedException {
        while (!active.isEmpty()) {
            if (stop == QueueProcessor.StopMode.BAIL || fatal != null) {
                // again each round: a run that had not started yet missed the first bail
                List.copyOf(active).forEach(source::bail);
            }
            changed.await(pollInterval.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** A look failed: start nothing, bail what runs, and fail {@link #run()} once. */
    private void failFast(HarnessException cause) {
        lock.lock();
        try {
            if (fatal == null) {
                fatal = new HarnessException("the queue worker stopped, bailing its " + active.size()
                        + " running runs: " + cause.getMessage(), cause);
            }
            List.copyOf(active).forEach(source::bail);
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private boolean stopping() {
        lock.lock();
        try {
            return stop != null || fatal != null;
        } finally {
            lock.unlock();
        }
    }

    private void launch(C claim) {
        String runId = source.runId(claim);
        lock.lock();
        try {
            active.add(runId);
        } finally {
            lock.unlock();
        }
        workers.execute(() -> work(claim, runId));
    }

    private void work(C claim, String runId) {
        try {
            source.work(claim, control);
        } finally {
            lock.lock();
            try {
                active.remove(runId);
                nextStartAt = clock.instant().plus(pause);
                dirty = true;
                changed.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }

    private void signal(boolean makeDirty) {
        lock.lock();
        try {
            dirty |= makeDirty;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Stops the loop: nothing new starts, the pause is cut short, and running attempts finish
     * ({@link QueueProcessor.StopMode#FINISH}) or are bailed ({@link QueueProcessor.StopMode#BAIL}).
     * Returns at once; {@link #run()} returns when the running attempts have ended. A later BAIL
     * upgrades a FINISH.
     */
    public void stop(QueueProcessor.StopMode mode) {
        Objects.requireNonNull(mode, "mode");
        lock.lock();
        try {
            if (stop == null || mode == QueueProcessor.StopMode.BAIL) {
                stop = mode;
            }
            if (mode == QueueProcessor.StopMode.BAIL) {
                List.copyOf(active).forEach(source::bail);
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** How many of this loop's attempts are running now. */
    public int runningCount() {
        lock.lock();
        try {
            return active.size();
        } finally {
            lock.unlock();
        }
    }

    /** Bails what runs, waits up to {@link #DEFAULT_CLOSE_TIMEOUT} for it to end, and stops the threads; idempotent. */
    @Override
    public void close() {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
        } finally {
            lock.unlock();
        }
        stop(QueueProcessor.StopMode.BAIL);
        workers.shutdown();
        try {
            if (!workers.awaitTermination(DEFAULT_CLOSE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                log.warn("queue runs did not end within {} s of the stop", DEFAULT_CLOSE_TIMEOUT.toSeconds());
                workers.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            workers.shutdownNow();
        }
    }

    /** Builds a {@link WorkerLoop}. */
    public static final class Builder<C> {
        private final Source<C> source;
        private int concurrency = 1;
        private Duration pollInterval = QueueProcessor.DEFAULT_POLL_INTERVAL;
        private Duration pause = Duration.ZERO;
        private Clock clock = Clock.systemUTC();
        private String threadName = "harness4j-worker";

        private Builder(Source<C> source) {
            this.source = Objects.requireNonNull(source, "source");
        }

        /** How many attempts run at once (default 1). */
        public Builder<C> concurrency(int value) {
            if (value < 1) {
                throw new IllegalArgumentException("concurrency must be >= 1, was " + value);
            }
            this.concurrency = value;
            return this;
        }

        /** How often the loop looks when nothing signals a change (default {@link QueueProcessor#DEFAULT_POLL_INTERVAL}). */
        public Builder<C> pollInterval(Duration value) {
            this.pollInterval = Checks.positive(value, "pollInterval");
            return this;
        }

        /** The pause after an attempt ends before the next one starts (default none); a stop cuts it short. */
        public Builder<C> pause(Duration value) {
            Objects.requireNonNull(value, "pause");
            if (value.isNegative()) {
                throw new IllegalArgumentException("pause must be >= 0, was " + value);
            }
            this.pause = value;
            return this;
        }

        public Builder<C> clock(Clock value) {
            this.clock = Objects.requireNonNull(value, "clock");
            return this;
        }

        /** The name of the run threads, numbered from 1 (default {@code harness4j-worker}). */
        public Builder<C> threadName(String value) {
            this.threadName = Objects.requireNonNull(value, "threadName");
            return this;
        }

        public WorkerLoop<C> build() {
            return new WorkerLoop<>(this);
        }
    }
}
