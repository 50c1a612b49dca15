package dev.harness4j.core;

import static dev.harness4j.core.GitFixture.repo;
import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.HarnessEvent;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.RunSpec;
import dev.harness4j.core.process.RunMarker;
import dev.harness4j.core.process.Sandbox;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Run ids are unique within one state dir, not across them (a job's runs are {@code <job
 * id>.<phase>.<n>}): two runners on two state dirs running a run of the same id at once must not
 * stop each other's processes when one of the runs ends.
 */
class TwinStateDirsTest {
    @TempDir Path tmp;

    @Test
    void theEndOfARunSparesARunOfTheSameIdUnderAnotherStateDir() throws Exception {
        Path base = repo(tmp.resolve("base"));
        Path go = tmp.resolve("b-has-started");
        String runId = "twin-" + ProcessHandle.current().pid();
        CountDownLatch aStarted = new CountDownLatch(1);
        CountDownLatch bStarted = new CountDownLatch(1);
        try (HarnessRunner a = runner(tmp.resolve("state-a"), aStarted, "a-started");
                HarnessRunner b = runner(tmp.resolve("state-b"), bStarted, "b-started")) {
            // a waits until b's harness is running, then ends: its end sweeps the processes carrying its run id
            RunSpec specA = RunSpec.builder(ShellHarness.ID, "local").model("m").prompt("p").baseline(base)
                    .option("script", "echo a-started; i=0; while [ ! -f '" + go + "' ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done; echo a > a.txt")
                    .build();
            // b outlives a's end by a few seconds, then writes its file: killed by a's sweep, it would write nothing
            RunSpec specB = RunSpec.builder(ShellHarness.ID, "local").model("m").prompt("p").baseline(base)
                    .option("script", "echo b-started; sleep 4; echo b > b.txt").build();
            CompletableFuture<RunRecord> runA = CompletableFuture.supplyAsync(() -> a.run(specA, runId));
            assertThat(aStarted.await(60, TimeUnit.SECONDS)).as("a started").isTrue();
            CompletableFuture<RunRecord> runB = CompletableFuture.supplyAsync(() -> b.run(specB, runId));
            assertThat(bStarted.await(60, TimeUnit.SECONDS)).as("b started").isTrue();
            Files.writeString(go, "go");

            RunRecord ra = runA.get(120, TimeUnit.SECONDS);
            assertThat(runB.isDone()).as("b still runs when a has ended").isFalse();
            RunRecord rb = runB.get(120, TimeUnit.SECONDS);

            assertThat(ra.result().outcome()).isEqualTo(Outcome.COMPLETED);
            assertThat(rb.result().outcome()).as("b, whose run id a's end swept: %s", rb.result().summary())
                    .isEqualTo(Outcome.COMPLETED);
            assertThat(rb.changes().files()).contains("b.txt");
            assertThat(RunMarker.find(runId)).isEmpty();
        }
    }

    @Test
    void aStateDirsScopeIsStableAndDiffersFromAnotherDirs() throws Exception {
        Path one = Files.createDirectories(tmp.resolve("one"));
        Path link = Files.createSymbolicLink(tmp.resolve("link"), one);
        assertThat(RunMarker.scopeOf(one)).isEqualTo(RunMarker.scopeOf(link)).hasSize(16);
        assertThat(RunMarker.scopeOf(one)).isNotEqualTo(RunMarker.scopeOf(tmp.resolve("two")));
    }

    private static HarnessRunner runner(Path state, CountDownLatch started, String line) {
        // unconfined: run a waits on a flag file outside its workspace, which a sandbox would hide
        return HarnessRunner.builder().stateDir(state).sandbox(Sandbox.OFF)
                .registry(HarnessRegistry.builder().add(new ShellHarness()).build())
                .providers(ShellHarness.provider()).loginProbe(false)
                .listener(e -> {
                    if (e instanceof HarnessEvent.OutputLine l && l.text().contains(line)) {
                        started.countDown();
                    }
                }).build();
    }
}
