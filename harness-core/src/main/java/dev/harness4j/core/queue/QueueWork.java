package dev.harness4j.core.queue;

import dev.harness4j.api.HarnessException;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Outcome;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link RunQueue} as a {@link WorkerLoop.Source}: a look lists the active entries and claims
 * what fits through the {@link Scheduler}; an attempt runs through the executor and is recorded
 * with {@link RunQueue#finish} (or {@link RunQueue#fail} when the executor threw), retried {@link
 * #RECORD_ATTEMPTS} times; a rate limit pauses its provider. What {@link QueueProcessor} runs.
 */
@SuppressWarnings("deprecation") // QueueProcessor.Executor: the form both seams are turned into here
final class QueueWork implements WorkerLoop.Source<QueueEntry> {
    /** How many times a worker tries to write how an attempt ended before it gives up: 5. */
    static final int RECORD_ATTEMPTS = 5;

    private static final Logger log = LoggerFactory.getLogger(QueueProcessor.class);

    private final RunQueue queue;
    private final QueueProcessor.Executor executor;
    private final Scheduler scheduler;
    private final QueueProcessor.Listener listener;
    private final boolean recoverOnStart;
    private final Duration pollInterval;
    private final Clock clock;
    private final Tally tally = new Tally();
    private final Map<String, Instant> providerPausedUntil = new HashMap<>(); // rate limits seen here; guarded by this

    QueueWork(RunQueue queue, QueueProcessor.Executor executor, Scheduler scheduler, QueueProcessor.Listener listener,
            boolean recoverOnStart, Duration pollInterval, Clock clock) {
        this.queue = queue;
        this.executor = executor;
        this.scheduler = scheduler;
        this.listener = listener;
        this.recoverOnStart = recoverOnStart;
        this.pollInterval = pollInterval;
        this.clock = clock;
    }

    Tally tally() {
        return tally;
    }

    @Override
    public void open() {
        if (recoverOnStart) {
            queue.recover();
        }
    }

    @Override
    public WorkerLoop.Look look(Instant now, int free, BooleanSupplier stopping, Consumer<QueueEntry> start) {
        List<QueueEntry> entries = queue.activeEntries();
        if (entries.stream().noneMatch(e -> e.state() == QueueEntry.State.QUEUED)) {
            return WorkerLoop.Look.DRAINED;
        }
        if (free <= 0) {
            return WorkerLoop.Look.AGAIN;
        }
        Map<String, Instant> pauses;
        synchronized (this) {
            pauses = new HashMap<>(providerPausedUntil);
        }
        int[] started = {0};
        BooleanSupplier full = () -> started[0] >= free || stopping.getAsBoolean();
        Instant wakeAt = scheduler.startWhatFits(entries, now, now.plus(pollInterval), pauses, full, attempt -> {
            started[0]++;
            tally.started();
            safe(() -> listener.started(attempt));
            start.accept(attempt);
        });
        return new WorkerLoop.Look(false, wakeAt);
    }

    @Override
    public String runId(QueueEntry attempt) {
        return attempt.runId();
    }

    @Override
    public boolean bail(String runId) {
        return executor.bail(runId);
    }

    @Override
    public void work(QueueEntry attempt, WorkerLoop.Control loop) {
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
        if (result != null && result.outcome() == Outcome.RATE_LIMITED) {
            pauseProvider(attempt.spec().provider(), result);
        }
        HarnessResult r = result;
        Throwable t = thrown;
        Optional<Optional<QueueEntry>> recorded = record(attempt, loop, t == null ? () -> queue.finish(attempt, r)
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
        if (thrown instanceof Error err) {
            throw err;
        }
    }

    /**
     * Writes how an attempt ended, trying {@link #RECORD_ATTEMPTS} times with a doubling wait
     * (from the poll interval) between tries; gives up early when the loop has failed.
     *
     * @return what the write returned, or empty when it could not be written (then the entry is
     *     listed in the summary's {@code unrecorded})
     */
    private Optional<Optional<QueueEntry>> record(QueueEntry attempt, WorkerLoop.Control loop,
            Supplier<Optional<QueueEntry>> write) {
        long waitMs = pollInterval.toMillis();
        HarnessException last = null;
        for (int i = 1; i <= RECORD_ATTEMPTS; i++) {
            try {
                return Optional.of(write.get());
            } catch (HarnessException e) {
                last = e;
            }
            loop.wake(); // let the loop look at the queue now: a lost queue directory fails it fast
            if (i == RECORD_ATTEMPTS || loop.failed() || !sleep(waitMs, loop)) {
                break;
            }
            waitMs *= 2;
        }
        tally.unrecorded(attempt.id());
        if (!loop.failed()) {
            log.error("could not record how run {} of queue entry {} ended; the entry stays running under this"
                    + " process (pid {}), and RunQueue.recover() queues it again once this process has exited: {}",
                    attempt.runId(), attempt.id(), attempt.owner().pid(), last.getMessage());
        }
        return Optional.empty();
    }

    private static boolean sleep(long ms, WorkerLoop.Control loop) {
        try {
            Thread.sleep(ms);
            return !loop.failed();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Keeps the provider paused until the limit's reset, whatever becomes of the entry that hit it. */
    private void pauseProvider(String provider, HarnessResult result) {
        Instant now = clock.instant();
        Instant until = result.retryAt() != null && result.retryAt().isAfter(now)
                ? result.retryAt() : now.plus(queue.retryPolicy().rateLimitWait());
        synchronized (this) {
            providerPausedUntil.merge(provider, until, (x, y) -> x.isAfter(y) ? x : y);
        }
    }

    private static void safe(Runnable r) {
        try {
            r.run();
        } catch (RuntimeException e) {
            log.warn("queue listener failed: {}", e.toString());
        }
    }
}
