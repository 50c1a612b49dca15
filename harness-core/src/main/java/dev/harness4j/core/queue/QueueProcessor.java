package dev.harness4j.core.queue;

import dev.harness4j.api.HarnessException;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.RunSpec;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.internal.Checks;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a {@link RunQueue}'s entries: sequentially by default, or several at once under caps per
 * harness and per provider; with a pause between
 * runs that a stop cuts short at once; no run of a rate-limited provider before its reset time;
 * and a graceful stop that lets running entries finish or bails them.
 *
 * <pre>{@code
 * try (QueueProcessor p = QueueProcessor.builder(queue, (runId, spec) -> runner.run(runId, spec))
 *         .concurrency(2).providerCap("anthropic", 1).pause(Duration.ofSeconds(5)).build()) {
 *     QueueProcessor.Summary s = p.runAll();   // blocks until nothing is queued any more
 * }
 * }</pre>
 *
 * <p>{@link #runAll()} first {@linkplain RunQueue#recover() recovers} what a crashed process left
 * running (unless turned off). The executor must run the spec under the run id it is given
 * (the run marker and the workspace {@code <stateDir>/runs/<runId>} are what recovery cleans).
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
    public static final Duration DEFAULT_CLOSE_TIMEOUT = Duration.ofSeconds(60);

    /** How many times a worker tries to write how an attempt ended before it gives up: 5. */
    static final int RECORD_ATTEMPTS = 5;

    private static final Logger log = LoggerFactory.getLogger(QueueProcessor.class);

    /** Runs one attempt; the seam to {@code HarnessRunner}. */
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
            Objects.requireNonNull(runner, "runner");
            return new Executor() {
                @Override
                public HarnessResult run(String runId, RunSpec spec) {
                    return runner.run(spec, runId).result();
                }

                @Override
                public boolean bail(String runId) {
                    return runner.bail(runId);
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

    private final RunQueue queue;
    private final Executor executor;
    private final int concurrency;
    private final Scheduler scheduler;
    private final Duration pause;
    private final Duration pollInterval;
    private final Listener listener;
    private final boolean recoverOnStart;
    private final Clock clock;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final Map<String, QueueEntry> active = new LinkedHashMap<>(); // runId -> attempt
    private final ExecutorService workers;
    private final Tally tally = new Tally();
    private final Map<String, Instant> providerPausedUntil = new HashMap<>(); // rate limits seen here
    private StopMode stop;
    private volatile HarnessException fatal;
    private boolean dirty; // something changed since the loop last looked
    private Instant nextStartAt = Instant.MIN;
    private boolean closed;

    private QueueProcessor(Builder b) {
        this.queue = b.queue;
        this.executor = b.executor;
        this.concurrency = b.concurrency;
        this.scheduler = new Scheduler(queue, b.harnessCaps, b.providerCaps);
        this.pause = b.pause;
        this.pollInterval = b.pollInterval;
        this.listener = b.listener;
        this.recoverOnStart = b.recoverOnStart;
        this.clock = b.clock;
        AtomicInteger n = new AtomicInteger();
        this.workers = Executors.newFixedThreadPool(concurrency, r -> {
            Thread t = new Thread(r, "harness4j-queue-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

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
        if (recoverOnStart) {
            queue.recover();
        }
        while (true) {
            Instant now;
            boolean idleBefore;
            boolean mayStart;
            Map<String, Instant> pauses;
            lock.lock();
            try {
                if (stop != null || fatal != null) {
                    awaitActiveEnd();
                    if (fatal != null) {
                        throw fatal;
                    }
                    return tally.summary(true);
                }
                dirty = false;
                now = clock.instant();
                // read before the listing: while nothing of ours runs, nothing of ours changes the queue
                idleBefore = active.isEmpty();
                mayStart = active.size() < concurrency && !now.isBefore(nextStartAt);
                pauses = new HashMap<>(providerPausedUntil);
            } finally {
                lock.unlock();
            }
            Instant wakeAt = now.plus(pollInterval);
            try {
                List<QueueEntry> entries = queue.activeEntries();
                boolean anyQueued = entries.stream().anyMatch(e -> e.state() == QueueEntry.State.QUEUED);
                if (!anyQueued && idleBefore) {
                    return tally.summary(false);
                }
                if (mayStart) {
                    wakeAt = scheduler.startWhatFits(entries, now, wakeAt, pauses, this::full, this::launch);
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

    /** Under the lock: waits for this processor's runs to end, bailing them on a BAIL stop or a failure. */
    private void awaitActiveEnd() throws InterruptedException {
        while (!active.isEmpty()) {
            if (stop == StopMode.BAIL || fatal != null) {
                // again each round: a run that had not started yet missed the first bail
                active.keySet().forEach(executor::bail);
            }
            changed.await(pollInterval.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** The queue cannot be read any more: start nothing, bail what runs, and fail {@link #runAll()} once. */
    private void failFast(HarnessException cause) {
        lock.lock();
        try {
            if (fatal == null) {
                fatal = new HarnessException("the queue processor stopped, bailing its " + active.size()
                        + " running runs: " + cause.getMessage(), cause);
            }
            active.keySet().forEach(executor::bail);
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private boolean full() {
        lock.lock();
        try {
            return active.size() >= concurrency || stop != null || fatal != null;
        } finally {
            lock.unlock();
        }
    }

    private void launch(QueueEntry attempt) {
        lock.lock();
        try {
            active.put(attempt.runId(), attempt);
        } finally {
            lock.unlock();
        }
        tally.started();
        safe(() -> listener.started(attempt));
        workers.execute(() -> work(attempt));
    }

    private void work(QueueEntry attempt) {
        HarnessResult result = null;
        Throwable thrown = null;
        try {
            result = executor.run(attempt.runId(), attempt.spec());
            if (result == null) {
                throw new IllegalStateException("the executor returned no result for run " + attempt.runId());
            }
        } catch (Exception | Error e) {
            thrown = e;
        }
        try {
            if (result != null && result.outcome() == Outcome.RATE_LIMITED) {
                pauseProvider(attempt.spec().provider(), result);
            }
            HarnessResult r = result;
            Throwable t = thrown;
            Optional<Optional<QueueEntry>> recorded = record(attempt, t == null ? () -> queue.finish(attempt, r)
                    : () -> queue.fail(attempt, "the runner failed: " + t));
            if (t != null) {
                if (recorded.isPresent()) {
                    log.error("run {} of queue entry {} failed outside the harness", attempt.runId(), attempt.id(), t);
                } else {
                    log.debug("run {} of queue entry {} failed outside the harness", attempt.runId(), attempt.id(), t);
                }
            }
            recorded.flatMap(x -> x).ifPresent(after -> {
                tally.ended(after);
                safe(() -> listener.finished(after, r));
            });
        } finally {
            lock.lock();
            try {
                active.remove(attempt.runId());
                nextStartAt = clock.instant().plus(pause);
                dirty = true;
                changed.signalAll();
            } finally {
                lock.unlock();
            }
        }
        if (thrown instanceof Error err) {
            throw err;
        }
    }

    /**
     * Writes how an attempt ended, trying {@link #RECORD_ATTEMPTS} times with a doubling wait
     * (from the poll interval) between tries; gives up early when the processor has failed.
     *
     * @return what the write returned, or empty when it could not be written (then the entry is
     *     listed in the summary's {@code unrecorded})
     */
    private Optional<Optional<QueueEntry>> record(QueueEntry attempt, Supplier<Optional<QueueEntry>> write) {
        long waitMs = pollInterval.toMillis();
        HarnessException last = null;
        for (int i = 1; i <= RECORD_ATTEMPTS; i++) {
            try {
                return Optional.of(write.get());
            } catch (HarnessException e) {
                last = e;
            }
            wakeLoop(); // let the loop look at the queue now: a lost queue directory fails it fast
            if (i == RECORD_ATTEMPTS || fatal != null || !sleep(waitMs)) {
                break;
            }
            waitMs *= 2;
        }
        tally.unrecorded(attempt.id());
        if (fatal == null) {
            log.error("could not record how run {} of queue entry {} ended; the entry stays running under this"
                    + " process (pid {}), and RunQueue.recover() queues it again once this process has exited: {}",
                    attempt.runId(), attempt.id(), attempt.owner().pid(), last.getMessage());
        }
        return Optional.empty();
    }

    private boolean sleep(long ms) {
        try {
            Thread.sleep(ms);
            return fatal == null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private void wakeLoop() {
        lock.lock();
        try {
            dirty = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Keeps the provider paused until the limit's reset, whatever becomes of the entry that hit it. */
    private void pauseProvider(String provider, HarnessResult result) {
        Instant now = clock.instant();
        Instant until = result.retryAt() != null && result.retryAt().isAfter(now)
                ? result.retryAt() : now.plus(queue.retryPolicy().rateLimitWait());
        lock.lock();
        try {
            providerPausedUntil.merge(provider, until, (x, y) -> x.isAfter(y) ? x : y);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Stops the processor: nothing new starts, the pause is cut short, and running entries finish
     * ({@link StopMode#FINISH}) or are bailed ({@link StopMode#BAIL}). Returns at once, even while
     * {@link #runAll()} waits for another process's lock on an entry; {@link #runAll()} returns when
     * the running entries have ended. A later BAIL upgrades a FINISH.
     */
    public void stop(StopMode mode) {
        Objects.requireNonNull(mode, "mode");
        lock.lock();
        try {
            if (stop == null || mode == StopMode.BAIL) {
                stop = mode;
            }
            if (mode == StopMode.BAIL) {
                active.keySet().forEach(executor::bail);
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** How many of this processor's runs are running now. */
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
        stop(StopMode.BAIL);
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

    private static void safe(Runnable r) {
        try {
            r.run();
        } catch (RuntimeException e) {
            log.warn("queue listener failed: {}", e.toString());
        }
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
