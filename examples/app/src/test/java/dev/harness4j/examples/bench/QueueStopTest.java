package dev.harness4j.examples.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.RunSpec;
import dev.harness4j.core.HarnessRegistry;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.ResultIndex;
import dev.harness4j.core.ResultQuery;
import dev.harness4j.core.process.RunMarker;
import dev.harness4j.core.queue.QueueEntry;
import dev.harness4j.core.queue.QueueProcessor;
import dev.harness4j.core.queue.RunQueue;
import dev.harness4j.examples.BenchMainTesting;
import dev.harness4j.testkit.bench.ScriptedProvider;
import dev.harness4j.testkit.fake.FakeHarness;
import dev.harness4j.testkit.fake.FakeScript;
import dev.harness4j.testkit.model.Scenario;
import dev.harness4j.testkit.model.ScriptedModelServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A bail stop of a queue running through the real runner: the run is stopped, recorded, and queued again later. */
class QueueStopTest {
    @TempDir Path tmp;

    @Test
    void aBailStopEndsTheRunningHarnessAtOnceAndLeavesTheEntryInterrupted() throws Exception {
        Path repo = BenchMainTesting.gitRepo(tmp.resolve("repo"));
        Path state = tmp.resolve("state");
        RunQueue queue = RunQueue.builder().stateDir(state).build();
        queue.enqueue(List.of(
                FakeScript.builder().print("working").silence(Duration.ofMinutes(5)).build()
                        .applyTo(RunSpec.builder(FakeHarness.ID, ScriptedProvider.NAME)).model("slow")
                        .prompt("wait").baseline(repo).build(),
                FakeScript.builder().writeFile("never.txt", "x\n").build()
                        .applyTo(RunSpec.builder(FakeHarness.ID, ScriptedProvider.NAME)).model("never")
                        .prompt("never started").baseline(repo).build()));
        CountDownLatch started = new CountDownLatch(1);
        ExecutorService bg = Executors.newSingleThreadExecutor();
        try (ScriptedModelServer server = ScriptedModelServer.start()) {
            server.script("slow", Scenario.empty()).script("never", Scenario.empty());
            try (HarnessRunner runner = HarnessRunner.builder().stateDir(state)
                    .registry(HarnessRegistry.builder().add(new FakeHarness()).build())
                    .providers(new ScriptedProvider(server)).listener(e -> {
                        if (e instanceof dev.harness4j.api.HarnessEvent.OutputLine) {
                            started.countDown();
                        }
                    }).build();
                    QueueProcessor p = QueueProcessor.builder(queue, QueueProcessor.Executor.of(runner))
                            .pause(Duration.ofMinutes(10)).build()) {
                Future<QueueProcessor.Summary> run = bg.submit(p::runAll);
                assertThat(started.await(60, TimeUnit.SECONDS)).as("the harness printed its first line").isTrue();
                String runId = queue.entries().get(0).runId();

                long t0 = System.nanoTime();
                p.stop(QueueProcessor.StopMode.BAIL);
                QueueProcessor.Summary s = run.get(60, TimeUnit.SECONDS);

                assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(30));
                assertThat(s.interrupted()).isEqualTo(1);
                assertThat(s.started()).isEqualTo(1);
                assertThat(RunMarker.find(runId)).isEmpty();
            }
        } finally {
            bg.shutdownNow();
        }
        List<QueueEntry> entries = queue.entries();
        assertThat(entries).extracting(QueueEntry::state).containsExactly(QueueEntry.State.INTERRUPTED, QueueEntry.State.QUEUED);
        var meta = new ObjectMapper().readTree(ResultIndex.of(state).find(ResultQuery.all().harness(FakeHarness.ID)
                .model("slow")).get(0).metaFile().toFile());
        assertThat(meta.path("outcome").asText()).isEqualTo("bailed");
        assertThat(queue.recover().requeued()).containsExactly(entries.get(0).id());
    }
}
