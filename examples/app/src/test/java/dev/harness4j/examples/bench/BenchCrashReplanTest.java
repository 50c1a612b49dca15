package dev.harness4j.examples.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.core.ResultIndex;
import dev.harness4j.core.ResultQuery;
import dev.harness4j.core.StoredResult;
import dev.harness4j.core.process.RunMarker;
import dev.harness4j.core.queue.QueueEntry;
import dev.harness4j.core.queue.RunQueue;
import dev.harness4j.testkit.fake.FakeHarness;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bench killed with {@code kill -9} mid-run and then planned again in a new JVM runs each combo
 * exactly once: the second plan counts the queue entries the crash left as planned.
 */
class BenchCrashReplanTest {
    private static final List<String> MODELS = List.of("m0", "m1", "m2", "m3", "m4", "m5");

    @TempDir Path tmp;

    private Process child(Path state, Path repo, Path log) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), BenchChildMain.class.getName(), state.toString(),
                repo.toString()));
        cmd.addAll(MODELS);
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    /** The run ids of the live runs of a state dir (their workspace dirs), once two are live. */
    private static List<String> twoLiveRuns(Path state) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline) {
            List<String> live = new ArrayList<>();
            if (Files.isDirectory(state.resolve("runs"))) {
                try (Stream<Path> s = Files.list(state.resolve("runs"))) {
                    for (Path d : s.filter(Files::isDirectory).toList()) {
                        String runId = d.getFileName().toString();
                        if (!RunMarker.find(runId).isEmpty()) {
                            live.add(runId);
                        }
                    }
                }
            }
            if (live.size() >= 2) {
                return live;
            }
            Thread.sleep(50); // another JVM's runs: nothing to wait on but the file system and /proc
        }
        throw new AssertionError("no two live runs in " + state + " within 120 s");
    }

    @Test
    void aBenchPlannedAgainAfterAKillRunsEveryComboOnceAndOverwritesNothing() throws Exception {
        Path repo = dev.harness4j.examples.BenchMainTesting.gitRepo(tmp.resolve("repo"));
        Path state = tmp.resolve("state");

        Process first = child(state, repo, tmp.resolve("first.log"));
        List<String> killed = twoLiveRuns(state);
        first.destroyForcibly(); // SIGKILL, mid-run
        assertThat(first.waitFor(30, TimeUnit.SECONDS)).isTrue();

        Process second = child(state, repo, tmp.resolve("second.log"));
        assertThat(second.waitFor(300, TimeUnit.SECONDS)).isTrue();
        String out = Files.readString(tmp.resolve("second.log"), StandardCharsets.UTF_8);
        assertThat(second.exitValue()).as(out).isZero();
        assertThat(out).as(out).contains("6 runs, 0 to run").contains("queued 0");

        List<QueueEntry> entries = RunQueue.builder().stateDir(state).build().entries();
        assertThat(entries).as("one queue entry per combo").hasSize(MODELS.size())
                .allSatisfy(e -> assertThat(e.state()).as(e.id()).isEqualTo(QueueEntry.State.DONE));
        ResultIndex results = ResultIndex.of(state);
        for (String m : MODELS) {
            List<StoredResult> runs = results.find(ResultQuery.all().task("crash").harness(FakeHarness.ID).model(m));
            assertThat(runs).as("results of " + m + " (each combo runs once)").hasSize(1);
            assertThat(runs.get(0).outcome()).isEqualTo("completed");
            assertThat(killed).doesNotContain(runs.get(0).runId());
        }
        for (String runId : killed) {
            assertThat(RunMarker.find(runId)).as("survivor of " + runId).isEmpty();
        }
    }
}
