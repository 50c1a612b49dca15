package dev.harness4j.core.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.RunSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class QueueProcessorTest {
    @TempDir Path state;
    private final ExecutorService background = Executors.newCachedThreadPool();

    @AfterEach
    void tearDown() {
        background.shutdownNow();
    }

    private RunQueue queue() {
        return RunQueue.builder().stateDir(state).build();
    }

    /** An executor that records order and concurrency; each run waits until released (or bailed). */
    static final class Recording implements QueueProcessor.Executor {
        final List<String> order = Collections.synchronizedList(new ArrayList<>());
        final Map<String, Integer> runningByProvider = new HashMap<>();
        final Map<String, Integer> maxByProvider = new HashMap<>();
        int running;
        int maxRunning;
        final Map<String, CountDownLatch> bails = new ConcurrentHashMap<>();
        final Duration hold;

        Recording(Duration hold) {
            this.hold = hold;
        }

        @Override
        public HarnessResult run(String runId, RunSpec spec) throws Exception {
            CountDownLatch bail = bails.computeIfAbsent(runId, k -> new CountDownLatch(1));
            synchronized (this) {
                order.add(spec.harness() + "/" + spec.provider());
                running++;
                maxRunning = Math.max(maxRunning, running);
                int n = runningByProvider.merge(spec.provider(), 1, Integer::sum);
                maxByProvider.merge(spec.provider(), n, Math::max);
            }
            boolean bailed = bail.await(hold.toMillis(), TimeUnit.MILLISECONDS);
            synchronized (this) {
                running--;
                runningByProvider.merge(spec.provider(), -1, Integer::sum);
            }
            return QueueTesting.result(bailed ? Outcome.BAILED : Outcome.COMPLETED);
        }

        @Override
        public boolean bail(String runId) {
            bails.computeIfAbsent(runId, k -> new CountDownLatch(1)).countDown();
            return true;
        }
    }

    @Test
    void runsEveryEntryOnceInQueueOrderOneAtATimeByDefault() throws Exception {
        RunQueue q = queue();
        q.enqueue(List.of(QueueTesting.spec("a", "p1", "m"), QueueTesting.spec("b", "p2", "m"), QueueTesting.spec("c", "p3", "m")));
        Recording exec = new Recording(Duration.ofMillis(20));
        try (QueueProcessor p = QueueProcessor.builder(q, exec).pollInterval(Duration.ofMillis(50)).build()) {
            QueueProcessor.Summary s = p.runAll();
            assertThat(s.done()).isEqualTo(3);
            assertThat(s.stopped()).isFalse();
        }
        assertThat(exec.order).containsExactly("a/p1", "b/p2", "c/p3");
        assertThat(exec.maxRunning).isEqualTo(1);
        assertThat(q.entries()).allSatisfy(e -> assertThat(e.state()).isEqualTo(QueueEntry.State.DONE));
    }

    @Test
    void concurrencyIsHeldUnderThePerProviderCap() throws Exception {
        RunQueue q = queue();
        List<RunSpec> specs = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            specs.add(QueueTesting.spec("a" + i, "slow", "m"));
            specs.add(QueueTesting.spec("b" + i, "fast", "m"));
        }
        q.enqueue(specs);
        Recording exec = new Recording(Duration.ofMillis(150));
        try (QueueProcessor p = QueueProcessor.builder(q, exec).concurrency(3).providerCap("slow", 1)
                .pollInterval(Duration.ofMillis(20)).build()) {
            assertThat(p.runAll().done()).isEqualTo(8);
        }
        assertThat(exec.maxByProvider.get("slow")).isEqualTo(1);
        assertThat(exec.maxRunning).isBetween(2, 3);
    }

    @Test
    void aStopCutsThePauseBetweenRunsShortAtOnce() throws Exception {
        RunQueue q = queue();
        q.enqueue(List.of(QueueTesting.spec("a", "p", "m"), QueueTesting.spec("b", "p", "m")));
        Recording exec = new Recording(Duration.ofMillis(1));
        CountDownLatch finished = new CountDownLatch(1);
        try (QueueProcessor p = QueueProcessor.builder(q, exec).pause(Duration.ofHours(1))
                .listener(new QueueProcessor.Listener() {
                    @Override
                    public void finished(QueueEntry after, HarnessResult result) {
                        finished.countDown();
                    }
                }).build()) {
            Future<QueueProcessor.Summary> run = background.submit(p::runAll);
            assertThat(finished.await(10, TimeUnit.SECONDS)).isTrue();
            long t0 = System.nanoTime();
            p.stop(QueueProcessor.StopMode.FINISH);
            QueueProcessor.Summary s = run.get(10, TimeUnit.SECONDS);
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(5));
            assertThat(s.stopped()).isTrue();
            assertThat(s.started()).isEqualTo(1);
        }
        assertThat(q.entries()).extracting(QueueEntry::state).containsExactly(QueueEntry.State.DONE, QueueEntry.State.QUEUED);
    }

    @Test
    void aBailStopInterruptsRunningEntriesWhichTheNextStartRunsAgain() throws Exception {
        RunQueue q = queue();
        q.enqueue(QueueTesting.spec("a", "p", "m"));
        Recording exec = new Recording(Duration.ofHours(1));
        CountDownLatch started = new CountDownLatch(1);
        try (QueueProcessor p = QueueProcessor.builder(q, exec).listener(new QueueProcessor.Listener() {
                    @Override
                    public void started(QueueEntry entry) {
                        started.countDown();
                    }
                }).build()) {
            Future<QueueProcessor.Summary> run = background.submit(p::runAll);
            assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
            p.stop(QueueProcessor.StopMode.BAIL);
            assertThat(run.get(10, TimeUnit.SECONDS).interrupted()).isEqualTo(1);
        }
        assertThat(q.entries().get(0).state()).isEqualTo(QueueEntry.State.INTERRUPTED);

        Recording again = new Recording(Duration.ofMillis(1));
        try (QueueProcessor p = QueueProcessor.builder(q, again).build()) {
            assertThat(p.runAll().done()).isEqualTo(1);
        }
        assertThat(q.entries().get(0).attempts()).isEqualTo(2);
    }

    @Test
    void aRateLimitedProviderWaitsForItsResetWhileOtherProvidersRun() throws Exception {
        RunQueue q = queue();
        q.enqueue(List.of(QueueTesting.spec("a", "limited", "m"), QueueTesting.spec("b", "limited", "m"),
                QueueTesting.spec("c", "other", "m")));
        Instant reset = Instant.now().plusMillis(1500);
        List<String> order = Collections.synchronizedList(new ArrayList<>());
        List<Instant> startsOfLimited = Collections.synchronizedList(new ArrayList<>());
        QueueProcessor.Executor exec = (runId, spec) -> {
            order.add(spec.harness());
            if (spec.provider().equals("limited")) {
                startsOfLimited.add(Instant.now());
                if (order.size() == 1) {
                    return QueueTesting.rateLimited(reset);
                }
            }
            return QueueTesting.result(Outcome.COMPLETED);
        };
        try (QueueProcessor p = QueueProcessor.builder(q, exec).pollInterval(Duration.ofMillis(50)).build()) {
            QueueProcessor.Summary s = p.runAll();
            assertThat(s.done()).isEqualTo(3);
            assertThat(s.retried()).isEqualTo(1);
        }
        assertThat(order).containsExactly("a", "c", "a", "b");
        assertThat(startsOfLimited.subList(1, 3)).allSatisfy(t -> assertThat(t).isAfterOrEqualTo(reset));
    }

    @Test
    void aRateLimitOnTheLastAttemptStillPausesTheProvider() throws Exception {
        RunQueue q = RunQueue.builder().stateDir(state).retryPolicy(RetryPolicy.NEVER).build();
        q.enqueue(List.of(QueueTesting.spec("a", "limited", "m"), QueueTesting.spec("b", "limited", "m")));
        Instant reset = Instant.now().plusMillis(2000);
        Map<String, Instant> starts = new ConcurrentHashMap<>();
        QueueProcessor.Executor exec = (runId, spec) -> {
            starts.put(spec.harness(), Instant.now());
            return spec.harness().equals("a") ? QueueTesting.rateLimited(reset) : QueueTesting.result(Outcome.COMPLETED);
        };
        try (QueueProcessor p = QueueProcessor.builder(q, exec).pollInterval(Duration.ofMillis(50)).build()) {
            QueueProcessor.Summary s = p.runAll();
            assertThat(s.failed()).as("a's only attempt was rate-limited").isEqualTo(1);
            assertThat(s.done()).isEqualTo(1);
        }
        assertThat(starts.get("b")).as("b waited for the reset a reported").isAfterOrEqualTo(reset);
    }

    @Test
    void aStrayCopyOfAnEntryFileIsMovedAsideOnceAndRunAllEnds() throws Exception {
        RunQueue q = queue();
        QueueEntry e = q.enqueue(QueueTesting.spec("a", "p", "m"));
        Path dir = state.resolve("queue");
        java.nio.file.Files.copy(dir.resolve(e.id() + ".json"), dir.resolve("copy-of-entry.json"));
        java.nio.file.Files.writeString(dir.resolve("q-garbled.json"), "{\"schema_version\":1, \"id\": ");
        try (QueueProcessor p = QueueProcessor.builder(q, (runId, spec) -> QueueTesting.result(Outcome.COMPLETED))
                .pollInterval(Duration.ofMillis(50)).build()) {
            QueueProcessor.Summary s = background.submit(p::runAll).get(60, TimeUnit.SECONDS);
            assertThat(s.done()).isEqualTo(1);
        }
        assertThat(q.entry(e.id()).orElseThrow().state()).isEqualTo(QueueEntry.State.DONE);
        assertThat(dir.resolve("copy-of-entry.json")).doesNotExist();
        assertThat(dir.resolve("q-garbled.json")).doesNotExist();
        assertThat(dir.resolve("quarantine").resolve("copy-of-entry.json")).exists();
        assertThat(dir.resolve("quarantine").resolve("q-garbled.json")).exists();
        assertThat(q.entries()).extracting(QueueEntry::id).containsExactly(e.id());
    }
}
