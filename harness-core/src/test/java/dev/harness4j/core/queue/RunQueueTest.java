package dev.harness4j.core.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.Outcome;
import dev.harness4j.core.process.RunMarker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunQueueTest {
    @TempDir Path state;

    private RunQueue queue() {
        return RunQueue.builder().stateDir(state).build();
    }

    @Test
    void manyThreadsClaimingTheSameEntriesEachWinDistinctOnes() throws Exception {
        RunQueue q = queue();
        List<QueueEntry> entries = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            entries.add(q.enqueue(QueueTesting.spec("aider", "p" + i, "m")));
        }
        List<String> won = Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = Executors.newFixedThreadPool(6);
        List<Future<?>> fs = new ArrayList<>();
        for (int t = 0; t < 6; t++) {
            RunQueue mine = queue(); // each thread its own queue instance over the same dir
            fs.add(pool.submit(() -> {
                for (QueueEntry e : entries) {
                    mine.claim(e.id()).ifPresent(c -> won.add(c.id()));
                }
            }));
        }
        for (Future<?> f : fs) {
            f.get(60, TimeUnit.SECONDS);
        }
        pool.shutdown();
        assertThat(won).hasSize(20).doesNotHaveDuplicates();
        assertThat(q.entries()).allSatisfy(e -> {
            assertThat(e.state()).isEqualTo(QueueEntry.State.RUNNING);
            assertThat(e.attempts()).isEqualTo(1);
            assertThat(e.owner().pid()).isEqualTo(ProcessHandle.current().pid());
        });
    }

    @Test
    void entriesKeepTheOrderTheyWereQueuedIn() {
        RunQueue q = queue();
        List<QueueEntry> made = q.enqueue(List.of(QueueTesting.spec("a", "p1", "m"), QueueTesting.spec("b", "p2", "m"),
                QueueTesting.spec("c", "p3", "m")));
        assertThat(q.entries()).extracting(QueueEntry::id).containsExactlyElementsOf(made.stream().map(QueueEntry::id).toList());
    }

    @Test
    void aSuccessIsDoneAndANeverRetriedClassFailsAtOnce() {
        RunQueue q = queue();
        QueueEntry ok = q.claim(q.enqueue(QueueTesting.spec("a", "p", "m")).id()).orElseThrow();
        assertThat(q.finish(ok, QueueTesting.result(Outcome.COMPLETED)).orElseThrow().state()).isEqualTo(QueueEntry.State.DONE);
        for (Outcome never : List.of(Outcome.CONTEXT_OVERFLOW, Outcome.AUTH, Outcome.BAD_REQUEST, Outcome.ERROR)) {
            QueueEntry e = q.claim(q.enqueue(QueueTesting.spec("a", "p", "m")).id()).orElseThrow();
            QueueEntry after = q.finish(e, QueueTesting.result(never)).orElseThrow();
            assertThat(after.state()).as(never.wireName()).isEqualTo(QueueEntry.State.FAILED);
            assertThat(after.lastOutcome()).isEqualTo(never.wireName());
        }
    }

    @Test
    void aTransientFailureIsRetriedWithGrowingBackoffUntilTheAttemptsRunOut() {
        RunQueue q = RunQueue.builder().stateDir(state)
                .retryPolicy(RetryPolicy.DEFAULT.withMaxAttempts(3).withBackoff(Duration.ofMillis(1), Duration.ofMillis(1)))
                .build();
        String id = q.enqueue(QueueTesting.spec("a", "p", "m")).id();
        QueueEntry after = null;
        for (int i = 1; i <= 3; i++) {
            QueueEntry attempt = awaitClaim(q, id);
            assertThat(attempt.attempts()).isEqualTo(i);
            after = q.finish(attempt, QueueTesting.result(Outcome.TRANSIENT)).orElseThrow();
        }
        assertThat(after.state()).isEqualTo(QueueEntry.State.FAILED);
        assertThat(after.reason()).contains("gave up after 3 attempts");
        assertThat(RetryPolicy.DEFAULT.backoff(1)).isEqualTo(Duration.ofSeconds(30));
        assertThat(RetryPolicy.DEFAULT.backoff(3)).isEqualTo(Duration.ofSeconds(120));
        assertThat(RetryPolicy.DEFAULT.backoff(30)).isEqualTo(Duration.ofMinutes(10));
    }

    @Test
    void aRateLimitedRunWaitsUntilTheResetTime() {
        RunQueue q = queue();
        QueueEntry e = q.claim(q.enqueue(QueueTesting.spec("a", "p", "m")).id()).orElseThrow();
        Instant reset = Instant.now().plusSeconds(3600);
        QueueEntry after = q.finish(e, QueueTesting.rateLimited(reset)).orElseThrow();
        assertThat(after.state()).isEqualTo(QueueEntry.State.QUEUED);
        assertThat(after.notBefore()).isEqualTo(reset);
        assertThat(q.claim(e.id())).as("not due before the reset").isEmpty();
    }

    @Test
    void timeoutsAreNotRetriedByDefault() {
        RunQueue q = queue();
        QueueEntry e = q.claim(q.enqueue(QueueTesting.spec("a", "p", "m")).id()).orElseThrow();
        assertThat(q.finish(e, QueueTesting.result(Outcome.TIMEOUT)).orElseThrow().state()).isEqualTo(QueueEntry.State.FAILED);
    }

    @Test
    void recoveryRequeuesADeadOwnersEntryKillsItsSurvivorAndRemovesItsWorkspace() throws Exception {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        Owner dead = new Owner(gone.pid(), 1L, null, Owner.hostName());
        RunQueue crashed = RunQueue.builder().stateDir(state).owner(dead).build();
        QueueEntry e = crashed.claim(crashed.enqueue(QueueTesting.spec("a", "p", "m")).id()).orElseThrow();
        Path ws = Files.createDirectories(state.resolve("runs").resolve(e.runId()).resolve("work"));
        ProcessBuilder pb = new ProcessBuilder("sleep", "300");
        pb.environment().put(RunMarker.ENV, e.runId());
        Process survivor = pb.start();

        RunQueue.Recovery r = queue().recover();

        assertThat(r.requeued()).containsExactly(e.id());
        assertThat(r.survivorsKilled()).isEqualTo(1);
        assertThat(survivor.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(ws.getParent()).doesNotExist();
        QueueEntry after = queue().entry(e.id()).orElseThrow();
        assertThat(after.state()).isEqualTo(QueueEntry.State.QUEUED);
        assertThat(after.attempts()).isEqualTo(1);
        assertThat(after.lastOutcome()).isEqualTo(RunQueue.CRASHED);
        assertThat(RunMarker.find(e.runId())).isEmpty();
    }

    @Test
    void aReusedPidWithAnotherStartTimeCountsAsDeadButALiveOwnerIsLeftAlone() {
        Owner me = Owner.current();
        Owner reused = new Owner(me.pid(), me.startTicks() == null ? null : me.startTicks() + 1,
                me.startedAt() == null ? null : me.startedAt().minusSeconds(3600), me.host());
        assertThat(reused.isDeadOnThisHost()).isTrue();
        assertThat(me.isDeadOnThisHost()).isFalse();
        assertThat(new Owner(me.pid(), 1L, null, "another-host").isDeadOnThisHost()).isFalse();

        RunQueue q = queue();
        QueueEntry live = q.claim(q.enqueue(QueueTesting.spec("a", "p", "m")).id()).orElseThrow();
        assertThat(q.recover().requeued()).isEmpty();
        assertThat(q.entry(live.id()).orElseThrow().state()).isEqualTo(QueueEntry.State.RUNNING);
    }

    @Test
    void aBailedRunIsInterruptedAndQueuedAgainAtTheNextRecovery() {
        RunQueue q = queue();
        QueueEntry e = q.claim(q.enqueue(QueueTesting.spec("a", "p", "m")).id()).orElseThrow();
        assertThat(q.finish(e, QueueTesting.result(Outcome.BAILED)).orElseThrow().state())
                .isEqualTo(QueueEntry.State.INTERRUPTED);
        assertThat(q.recover().requeued()).containsExactly(e.id());
        assertThat(q.claim(e.id()).orElseThrow().attempts()).isEqualTo(2);
    }

    @Test
    void aStaleAttemptCannotFinishAnEntryThatMovedOn() {
        RunQueue q = queue();
        QueueEntry first = q.claim(q.enqueue(QueueTesting.spec("a", "p", "m")).id()).orElseThrow();
        q.interrupt(first, "stop");
        q.recover();
        QueueEntry second = q.claim(first.id()).orElseThrow();
        assertThat(q.finish(first, QueueTesting.result(Outcome.COMPLETED))).isEmpty();
        assertThat(q.entry(first.id()).orElseThrow().runId()).isEqualTo(second.runId());
    }

    private static QueueEntry awaitClaim(RunQueue q, String id) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            var c = q.claim(id);
            if (c.isPresent()) {
                return c.get();
            }
            Thread.onSpinWait();
        }
        throw new AssertionError("entry " + id + " never became due");
    }
}
