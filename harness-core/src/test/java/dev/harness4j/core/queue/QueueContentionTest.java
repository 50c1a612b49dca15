package dev.harness4j.core.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.Outcome;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Entry locks held by another process (a second JVM): at claim time and at finish time. */
class QueueContentionTest {
    @TempDir Path state;
    private final ExecutorService background = Executors.newCachedThreadPool();
    private final Set<Throwable> uncaught = ConcurrentHashMap.newKeySet();
    private final Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();

    QueueContentionTest() {
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> uncaught.add(e));
    }

    @AfterEach
    void tearDown() {
        background.shutdownNow();
        Thread.setDefaultUncaughtExceptionHandler(previous);
    }

    private RunQueue queue(Duration lockTimeout) {
        return RunQueue.builder().stateDir(state).store(new FileQueueStore(state.resolve("queue"), lockTimeout))
                .retryPolicy(RetryPolicy.NEVER).build();
    }

    @Test
    void anEntryLockedByAnotherProcessIsSkippedWhileTheOthersRun() throws Exception {
        RunQueue q = queue(Duration.ofMillis(500));
        List<QueueEntry> es = q.enqueue(List.of(QueueTesting.spec("a", "p", "m"), QueueTesting.spec("b", "p", "m")));
        Process holder = LockHolder.start(LockHolder.lockFilesOf(state.resolve("queue"), es.get(0).id()));
        try (QueueProcessor p = QueueProcessor.builder(q, (runId, spec) -> QueueTesting.result(Outcome.COMPLETED))
                .pollInterval(Duration.ofMillis(50)).build()) {
            Future<QueueProcessor.Summary> run = background.submit(p::runAll);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (q.entry(es.get(1).id()).orElseThrow().state() != QueueEntry.State.DONE
                    && System.nanoTime() < deadline && !run.isDone()) {
                Thread.sleep(50);
            }
            assertThat(run.isDone()).as("runAll still runs, waiting for the locked entry").isFalse();
            assertThat(q.entry(es.get(1).id()).orElseThrow().state()).isEqualTo(QueueEntry.State.DONE);
            assertThat(q.entry(es.get(0).id()).orElseThrow().state()).isEqualTo(QueueEntry.State.QUEUED);

            LockHolder.stop(holder); // released: the skipped entry is tried again and runs
            QueueProcessor.Summary s = run.get(60, TimeUnit.SECONDS);
            assertThat(s.done()).isEqualTo(2);
            assertThat(q.entry(es.get(0).id()).orElseThrow().state()).isEqualTo(QueueEntry.State.DONE);
        } finally {
            LockHolder.stop(holder);
        }
    }

    @Test
    void runAllReturnsPromptlyAfterABailStopWhileAClaimWaitsForAnotherProcesssLock() throws Exception {
        RunQueue q = queue(Duration.ofMinutes(10)); // a claim that waited the lock out would hold runAll that long
        QueueEntry e = q.enqueue(QueueTesting.spec("a", "p", "m"));
        Process holder = LockHolder.start(LockHolder.lockFilesOf(state.resolve("queue"), e.id()));
        try (QueueProcessor p = QueueProcessor.builder(q, (runId, spec) -> QueueTesting.result(Outcome.COMPLETED))
                .pollInterval(Duration.ofMillis(50)).build()) {
            AtomicReference<Thread> loop = new AtomicReference<>();
            Future<QueueProcessor.Summary> run = background.submit(() -> {
                loop.set(Thread.currentThread());
                return p.runAll();
            });
            awaitClaimWaiting(loop, run);

            p.stop(QueueProcessor.StopMode.BAIL);

            QueueProcessor.Summary s = run.get(30, TimeUnit.SECONDS); // not the lock's 10 minutes
            assertThat(s.stopped()).isTrue();
            assertThat(s.started()).isZero();
            assertThat(q.entry(e.id()).orElseThrow().state()).isEqualTo(QueueEntry.State.QUEUED);
        } finally {
            LockHolder.stop(holder);
        }
    }

    /** Waits until the processor's loop thread is inside a claim (waiting for the held lock). */
    private static void awaitClaimWaiting(AtomicReference<Thread> loop, Future<?> run) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline && !run.isDone()) {
            Thread t = loop.get();
            if (t != null && Arrays.stream(t.getStackTrace()).anyMatch(f -> f.getClassName().equals(RunQueue.class.getName())
                    && f.getMethodName().equals("claim"))) {
                return;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("the processor never waited in a claim (runAll done: " + run.isDone() + ")");
    }

    @Test
    void aResultThatCannotBeRecordedAtOnceIsRetriedUntilTheLockIsFree() throws Exception {
        RunQueue q = queue(Duration.ofMillis(200));
        QueueEntry e = q.enqueue(QueueTesting.spec("a", "p", "m"));
        QueueProcessor.Executor exec = (runId, spec) -> {
            // another process takes the entry's lock as the run ends, and lets go of it 700 ms later
            Process holder = LockHolder.start(LockHolder.lockFilesOf(state.resolve("queue"), e.id()));
            background.submit(() -> {
                Thread.sleep(700);
                LockHolder.stop(holder);
                return null;
            });
            return QueueTesting.result(Outcome.COMPLETED);
        };
        try (QueueProcessor p = QueueProcessor.builder(q, exec).pollInterval(Duration.ofMillis(100)).build()) {
            QueueProcessor.Summary s = background.submit(p::runAll).get(60, TimeUnit.SECONDS);

            assertThat(s.done()).isEqualTo(1);
            assertThat(q.entry(e.id()).orElseThrow().state()).isEqualTo(QueueEntry.State.DONE);
            assertThat(uncaught).isEmpty();
        }
    }

    @Test
    void aResultThatCannotBeRecordedIsListedInTheSummaryAndNoThreadDies() throws Exception {
        RunQueue q = queue(Duration.ofMillis(200));
        QueueEntry e = q.enqueue(QueueTesting.spec("a", "p", "m"));
        Process[] holder = new Process[1];
        QueueProcessor.Executor exec = (runId, spec) -> {
            holder[0] = LockHolder.start(LockHolder.lockFilesOf(state.resolve("queue"), e.id()));
            return QueueTesting.result(Outcome.COMPLETED);
        };
        try (QueueProcessor p = QueueProcessor.builder(q, exec).pollInterval(Duration.ofMillis(50)).build()) {
            QueueProcessor.Summary s = background.submit(p::runAll).get(60, TimeUnit.SECONDS);

            assertThat(s.unrecorded()).containsExactly(e.id());
            assertThat(s.done() + s.failed()).isZero();
            assertThat(uncaught).isEmpty();
            QueueEntry left = q.entry(e.id()).orElseThrow();
            assertThat(left.state()).isEqualTo(QueueEntry.State.RUNNING);
            assertThat(left.owner()).isEqualTo(q.owner()); // a later recover() re-queues it once we are gone
        } finally {
            if (holder[0] != null) {
                LockHolder.stop(holder[0]);
            }
        }
    }
}
