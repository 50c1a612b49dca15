package dev.harness4j.core.process;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.Limits;
import dev.harness4j.api.Termination;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Limits, bail and close stop the whole process tree: nothing with the run's marker survives. */
class StoppingTest {
    private static final Duration GRACE = Duration.ofMillis(500);
    /** A child that ignores TERM, and a double-forked grandchild in its own session that ignores it too. */
    static final String STUBBORN_TREE = "trap '' TERM; "
            + "(setsid sh -c 'trap \"\" TERM; sleep 120' </dev/null >/dev/null 2>&1 &); "
            + "sleep 120 & echo ready; wait";

    @TempDir Path dir;
    private final ProcessSupervisor supervisor = ProcessSupervisor.builder().termGrace(GRACE).build();
    private final ExecutorService pool = Executors.newCachedThreadPool();

    @AfterEach
    void close() {
        supervisor.close();
        pool.shutdownNow();
    }

    @Test
    void stopsARunWithoutNewOutputAfterTheInactivityTimeout() throws Exception {
        String runId = Runs.newRunId();
        ProcessOutcome outcome = supervisor.run(ProcessRequest.builder(runId, Runs.sh(dir, "echo start; sleep 60"), dir)
                .limits(Limits.NONE.withInactivityTimeout(Duration.ofSeconds(1))).build());

        assertThat(outcome.termination()).isEqualTo(
                new Termination(Termination.Kind.INACTIVITY_TIMEOUT, "no new output within 1 s"));
        assertThat(outcome.duration()).isLessThan(Duration.ofSeconds(10));
        assertThat(RunMarker.find(runId)).isEmpty();
        assertThat(Files.readAllLines(dir.resolve("transcript.log")))
                .containsExactly("start", "[harness4j] stopped: no new output within 1 s");
    }

    @Test
    void repeatedIdenticalLinesDoNotKeepARunAlive() throws Exception {
        String runId = Runs.newRunId();
        Runs.Lines lines = new Runs.Lines();
        ProcessOutcome outcome = supervisor.run(ProcessRequest.builder(runId,
                        Runs.sh(dir, "while true; do echo 'still thinking'; sleep 0.1; done"), dir)
                .limits(Limits.NONE.withInactivityTimeout(Duration.ofSeconds(1))).listener(lines).build());

        assertThat(outcome.termination().kind()).isEqualTo(Termination.Kind.INACTIVITY_TIMEOUT);
        assertThat(lines.lines.size()).isGreaterThan(3);
        assertThat(lines.lines.get(0).activity()).isTrue();
        assertThat(lines.lines.subList(1, lines.lines.size())).noneMatch(l -> l.activity());
        assertThat(RunMarker.find(runId)).isEmpty();
    }

    @Test
    void variedLinesKeepARunAliveUntilItExits() throws Exception {
        ProcessOutcome outcome = supervisor.run(ProcessRequest.builder(Runs.newRunId(),
                        Runs.sh(dir, "i=0; while [ $i -lt 30 ]; do echo step $i; i=$((i+1)); sleep 0.1; done"), dir)
                .limits(Limits.NONE.withInactivityTimeout(Duration.ofMillis(1200))).build());

        assertThat(outcome.termination()).isEqualTo(Termination.exited());
        assertThat(outcome.exitCode()).isZero();
        assertThat(outcome.duration()).as("ran well past the inactivity timeout").isGreaterThan(Duration.ofMillis(2400));
    }

    @Test
    void stopsARunThatExceedsItsMaxRuntimeEvenWhileItKeepsPrinting() throws Exception {
        String runId = Runs.newRunId();
        ProcessOutcome outcome = supervisor.run(ProcessRequest.builder(runId,
                        Runs.sh(dir, "i=0; while true; do echo tick $i; i=$((i+1)); sleep 0.05; done"), dir)
                .limits(Limits.NONE.withMaxRuntime(Duration.ofMillis(1500))
                        .withInactivityTimeout(Duration.ofSeconds(30))).build());

        assertThat(outcome.termination()).isEqualTo(
                new Termination(Termination.Kind.MAX_RUNTIME, "exceeded max runtime 1.5 s"));
        assertThat(RunMarker.find(runId)).isEmpty();
        assertThat(Files.readString(dir.resolve("transcript.log"))).endsWith("[harness4j] stopped: exceeded max runtime 1.5 s\n");
    }

    @Test
    void bailKillsAChildThatIgnoresTermAndADoubleForkedGrandchild() throws Exception {
        String runId = Runs.newRunId();
        Runs.Lines lines = new Runs.Lines();
        Future<ProcessOutcome> run = pool.submit(() -> supervisor.run(ProcessRequest.builder(runId,
                Runs.sh(dir, STUBBORN_TREE), dir).listener(lines).build()));
        assertThat(lines.await("ready"::equals, 10)).isTrue();
        assertThat(RunMarker.find(runId)).hasSizeGreaterThanOrEqualTo(3);

        assertThat(supervisor.bail(runId)).isTrue();
        ProcessOutcome outcome = run.get(30, TimeUnit.SECONDS);

        assertThat(outcome.termination()).isEqualTo(new Termination(Termination.Kind.BAILED, "bailed"));
        assertThat(outcome.exitCode()).isEqualTo(128 + 9);
        assertThat(RunMarker.find(runId)).isEmpty();
        assertThat(supervisor.bail(runId)).isFalse();
        assertThat(Files.readString(dir.resolve("transcript.log"))).contains("ready").contains("[harness4j] stopped: bailed");
    }

    @Test
    void eachTimeoutAlsoKillsTheStubbornTree() throws Exception {
        String inactive = Runs.newRunId();
        String tooLong = Runs.newRunId();
        Path dir2 = Files.createDirectories(dir.resolve("second"));

        ProcessOutcome a = supervisor.run(ProcessRequest.builder(inactive, Runs.sh(dir, STUBBORN_TREE), dir)
                .limits(Limits.NONE.withInactivityTimeout(Duration.ofMillis(700))).build());
        ProcessOutcome b = supervisor.run(ProcessRequest.builder(tooLong, Runs.sh(dir2, STUBBORN_TREE), dir2)
                .limits(Limits.NONE.withMaxRuntime(Duration.ofMillis(700))).build());

        assertThat(a.termination().kind()).isEqualTo(Termination.Kind.INACTIVITY_TIMEOUT);
        assertThat(b.termination().kind()).isEqualTo(Termination.Kind.MAX_RUNTIME);
        assertThat(RunMarker.find(inactive)).isEmpty();
        assertThat(RunMarker.find(tooLong)).isEmpty();
        assertThat(Files.readString(dir.resolve("transcript.log"))).contains("[harness4j] stopped: no new output");
        assertThat(Files.readString(dir2.resolve("transcript.log"))).contains("[harness4j] stopped: exceeded max runtime");
    }

    @Test
    void killsAGrandchildLeftBehindByAProcessThatExitedByItself() throws Exception {
        String runId = Runs.newRunId();
        // the grandchild keeps stdout open: run() must still return, by killing it
        ProcessOutcome outcome = supervisor.run(ProcessRequest.builder(runId,
                Runs.sh(dir, "(setsid sh -c 'trap \"\" TERM; sleep 120' &); echo parent done"), dir).build());

        assertThat(outcome.termination()).isEqualTo(Termination.exited());
        assertThat(outcome.exitCode()).isZero();
        assertThat(outcome.duration()).isLessThan(Duration.ofSeconds(10));
        assertThat(RunMarker.find(runId)).isEmpty();
    }

    @Test
    void killsAGrandchildThatIsExecingWhenItsParentExits() throws Exception {
        // the grandchild detaches (setsid) and exec's itself a few hundred times before it settles
        // in a sleep: the sweep after the parent's exit may meet it mid-exec, when /proc shows no
        // environment for a moment (one scan in five or so, on a machine with 2 CPUs)
        Path loop = dir.resolve("loop.sh");
        Files.writeString(loop, "[ \"$1\" -gt 0 ] && exec /bin/sh \"$0\" $(($1 - 1)); exec sleep 120\n");
        for (int round = 0; round < 10; round++) {
            String runId = Runs.newRunId();
            ProcessOutcome outcome = supervisor.run(ProcessRequest.builder(runId, Runs.sh(dir,
                    "(setsid /bin/sh '" + loop + "' 300 </dev/null >/dev/null 2>&1 &)"),
                    dir).build());

            assertThat(outcome.exitCode()).isZero();
            assertThat(RunMarker.find(runId)).as("survivors of round %d", round).isEmpty();
        }
    }

    @Test
    void closeStopsEveryRunningRunAsAShutdown() throws Exception {
        String runId = Runs.newRunId();
        Runs.Lines lines = new Runs.Lines();
        Future<ProcessOutcome> run = pool.submit(() -> supervisor.run(ProcessRequest.builder(runId,
                Runs.sh(dir, STUBBORN_TREE), dir).listener(lines).build()));
        assertThat(lines.await("ready"::equals, 10)).isTrue();

        supervisor.close();
        supervisor.close();

        assertThat(run.get(1, TimeUnit.SECONDS).termination().kind()).isEqualTo(Termination.Kind.SHUTDOWN);
        assertThat(RunMarker.find(runId)).isEmpty();
    }

    @Test
    void anInterruptedRunIsStoppedAsAShutdownAndKeepsTheInterrupt() throws Exception {
        String runId = Runs.newRunId();
        Runs.Lines lines = new Runs.Lines();
        AtomicReference<ProcessOutcome> outcome = new AtomicReference<>();
        AtomicBoolean stillInterrupted = new AtomicBoolean();
        Thread t = new Thread(() -> {
            try {
                outcome.set(supervisor.run(ProcessRequest.builder(runId, Runs.sh(dir, STUBBORN_TREE), dir)
                        .listener(lines).build()));
            } catch (InterruptedException e) {
                throw new AssertionError("run() should return the outcome, not throw", e);
            }
            stillInterrupted.set(Thread.currentThread().isInterrupted());
        });
        t.start();
        assertThat(lines.await("ready"::equals, 10)).isTrue();

        t.interrupt();
        t.join(30_000);

        assertThat(outcome.get().termination().kind()).isEqualTo(Termination.Kind.SHUTDOWN);
        assertThat(stillInterrupted).isTrue();
        assertThat(RunMarker.find(runId)).isEmpty();
    }
}
