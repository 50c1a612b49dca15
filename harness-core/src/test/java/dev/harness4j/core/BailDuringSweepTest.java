package dev.harness4j.core;

import static dev.harness4j.core.GitFixture.repo;
import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.HarnessEvent;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.RunSpec;
import dev.harness4j.core.process.RunMarker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bail is either refused or recorded: {@link HarnessRunner#bail} returning true means the run
 * ends {@code bailed}, also when it arrives while the runner sweeps what an exited harness left
 * behind.
 */
class BailDuringSweepTest {
    @TempDir Path tmp;

    @Test
    void aBailWhileTheSweepAfterAnExitRunsIsRefusedOrEndsTheRunAsBailed() throws Exception {
        Path base = repo(tmp.resolve("base"));
        CountDownLatch started = new CountDownLatch(1);
        try (HarnessRunner runner = HarnessRunner.builder().stateDir(tmp.resolve("state"))
                .registry(HarnessRegistry.builder().add(new ShellHarness()).build())
                .providers(ShellHarness.provider()).termGrace(Duration.ofSeconds(4)).loginProbe(false)
                .listener(e -> {
                    if (e instanceof HarnessEvent.OutputLine l && l.text().contains("harness-exits")) {
                        started.countDown();
                    }
                }).build()) {
            // the harness exits at once, leaving a grandchild that ignores TERM: the sweep waits the term grace
            RunSpec spec = RunSpec.builder(ShellHarness.ID, "local").model("m").prompt("p").baseline(base)
                    .option("script", "(trap '' TERM; exec sleep 60) >/dev/null 2>&1 & echo harness-exits").build();
            CompletableFuture<RunRecord> run = CompletableFuture.supplyAsync(() -> runner.run(spec, "sweep-race-" + ProcessHandle.current().pid()));
            assertThat(started.await(60, TimeUnit.SECONDS)).isTrue();
            Thread.sleep(1000); // the shell has exited by now; the sweep is waiting for the grandchild
            boolean accepted = runner.bail("sweep-race-" + ProcessHandle.current().pid());
            RunRecord r = run.get(120, TimeUnit.SECONDS);

            if (accepted) {
                assertThat(r.result().outcome()).as("bail() said yes").isEqualTo(Outcome.BAILED);
            } else {
                assertThat(r.result().outcome()).as("bail() said no").isNotEqualTo(Outcome.BAILED);
            }
            assertThat(RunMarker.find("sweep-race-" + ProcessHandle.current().pid())).isEmpty();
            assertThat(runner.bail("sweep-race-" + ProcessHandle.current().pid())).as("a finished run cannot be bailed").isFalse();
        }
    }
}
