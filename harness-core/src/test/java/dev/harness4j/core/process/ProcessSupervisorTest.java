package dev.harness4j.core.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.harness4j.api.HarnessEvent;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.Termination;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcessSupervisorTest {
    @TempDir Path dir;
    private final ProcessSupervisor supervisor = ProcessSupervisor.builder().build();

    @AfterEach
    void close() {
        supervisor.close();
    }

    @Test
    void runsAProcessAndCapturesBothStreamsAndItsExitCode() throws Exception {
        String runId = Runs.newRunId();
        Runs.Lines lines = new Runs.Lines();
        ProcessOutcome outcome = supervisor.run(ProcessRequest.builder(runId,
                Runs.sh(dir, "echo hello; echo oops >&2; exit 3"), dir).listener(lines).build());

        assertThat(outcome.termination()).isEqualTo(Termination.exited());
        assertThat(outcome.exitCode()).isEqualTo(3);
        assertThat(outcome.pid()).isPositive();
        assertThat(Files.readString(dir.resolve("stdout.log"))).isEqualTo("hello\n");
        assertThat(Files.readString(dir.resolve("stderr.log"))).isEqualTo("oops\n");
        assertThat(Files.readAllLines(dir.resolve("transcript.log"))).containsExactlyInAnyOrder("hello", "oops");
        assertThat(lines.lines).extracting(HarnessEvent.OutputLine::stream, HarnessEvent.OutputLine::text)
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple(HarnessEvent.Stream.STDOUT, "hello"),
                        org.assertj.core.groups.Tuple.tuple(HarnessEvent.Stream.STDERR, "oops"));
        assertThat(lines.lines).allMatch(l -> l.runId().equals(runId));
    }

    @Test
    void startsTheProcessAsTheLeaderOfItsOwnSessionAndGroup() throws Exception {
        ProcessOutcome outcome = supervisor.run(ProcessRequest.builder(Runs.newRunId(),
                Runs.sh(dir, "echo $$; ps -o pgid= -p $$; ps -o sid= -p $$"), dir).build());

        assertThat(Files.readAllLines(dir.resolve("stdout.log"))).extracting(String::strip)
                .containsOnly(String.valueOf(outcome.pid()));
    }

    @Test
    void buildsTheEnvironmentFromTheBaseMinusRemovalsPlusTheInvocationAndTheMarker() throws Exception {
        String runId = Runs.newRunId();
        Map<String, String> base = new HashMap<>(System.getenv());
        base.put("KEEP_ME", "kept");
        base.put("ANTHROPIC_API_KEY", "inherited-key");
        base.put("ANTHROPIC_BASE_URL", "http://inherited");
        base.put("DROP_ME", "x");
        Invocation inv = Invocation.builder("sh", "-c",
                        "echo $KEEP_ME; echo ${ANTHROPIC_API_KEY-unset}; echo ${ANTHROPIC_BASE_URL-unset}; "
                                + "echo ${DROP_ME-unset}; echo $ADDED; echo $PWD; pwd; echo $HARNESS4J_RUN_ID")
                .removeEnv("ANTHROPIC_*").removeEnv("DROP_ME").env("ADDED", "added")
                .workingDir(dir).build();

        supervisor.run(ProcessRequest.builder(runId, inv, dir).baseEnvironment(base).build());

        assertThat(Files.readAllLines(dir.resolve("stdout.log"))).containsExactly(
                "kept", "unset", "unset", "unset", "added", dir.toString(), dir.toRealPath().toString(), runId);
    }

    @Test
    void writesTheInvocationFilesIntoTheScratchDirBeforeStarting() throws Exception {
        Path scratch = dir.resolve("scratch");
        Path work = Files.createDirectories(dir.resolve("work"));
        Invocation inv = Invocation.builder("sh", scratch.resolve("bin/run.sh").toString())
                .file("bin/run.sh", "cat \"$(dirname \"$0\")/prompt.txt\"; pwd\n")
                .file("bin/prompt.txt", "do the thing\n")
                .workingDir(work).build();

        ProcessOutcome outcome = supervisor.run(ProcessRequest.builder(Runs.newRunId(), inv, dir)
                .scratchDir(scratch).build());

        assertThat(outcome.exitCode()).isZero();
        assertThat(Files.readAllLines(dir.resolve("stdout.log"))).containsExactly("do the thing", work.toString());
    }

    @Test
    void writesStdinTextThenClosesIt() throws Exception {
        Invocation inv = Invocation.builder("cat").stdin("line one\nline two\n").workingDir(dir).build();

        ProcessOutcome outcome = supervisor.run(ProcessRequest.builder(Runs.newRunId(), inv, dir).build());

        assertThat(outcome.exitCode()).isZero();
        assertThat(Files.readString(dir.resolve("stdout.log"))).isEqualTo("line one\nline two\n");
    }

    @Test
    void givesTheProcessDevNullAsStdinWhenTheInvocationHasNone() throws Exception {
        ProcessOutcome outcome = supervisor.run(ProcessRequest.builder(Runs.newRunId(),
                Invocation.builder("cat").workingDir(dir).build(), dir).build());

        assertThat(outcome.termination().kind()).isEqualTo(Termination.Kind.EXITED);
        assertThat(Files.readString(dir.resolve("stdout.log"))).isEmpty();
    }

    @Test
    void reportsAMissingBinaryAsAStartFailureWithTheReason() throws Exception {
        Invocation inv = Invocation.builder("no-such-harness-binary", "--yes").workingDir(dir).build();

        ProcessOutcome outcome = supervisor.run(ProcessRequest.builder(Runs.newRunId(), inv, dir).build());

        assertThat(outcome.termination().kind()).isEqualTo(Termination.Kind.START_FAILED);
        assertThat(outcome.termination().reason()).contains("no-such-harness-binary").contains("not found on PATH");
        assertThat(outcome.exitCode()).isNull();
        assertThat(outcome.pid()).isEqualTo(-1);
        assertThat(Files.readString(dir.resolve("transcript.log"))).contains("could not start").contains("no-such-harness-binary");
        assertThat(dir.resolve("stdout.log")).exists();
    }

    @Test
    void reportsAMissingAbsoluteBinaryAndAMissingWorkingDirAsStartFailures() throws Exception {
        ProcessOutcome noBinary = supervisor.run(ProcessRequest.builder(Runs.newRunId(),
                Invocation.builder(dir.resolve("nope").toString()).workingDir(dir).build(), dir).build());
        ProcessOutcome noDir = supervisor.run(ProcessRequest.builder(Runs.newRunId(),
                Invocation.builder("sh").workingDir(dir.resolve("missing")).build(), dir).build());

        assertThat(noBinary.termination().kind()).isEqualTo(Termination.Kind.START_FAILED);
        assertThat(noBinary.termination().reason()).contains(dir.resolve("nope").toString()).contains("does not exist");
        assertThat(noDir.termination().kind()).isEqualTo(Termination.Kind.START_FAILED);
        assertThat(noDir.termination().reason()).contains("working dir");
    }

    @Test
    void reportsAScriptWhoseInterpreterIsMissingAsAStartFailure() throws Exception {
        Path script = dir.resolve("agent");
        Files.writeString(script, "#!/no/such/interpreter\necho hi\n");
        script.toFile().setExecutable(true);

        ProcessOutcome outcome = supervisor.run(ProcessRequest.builder(Runs.newRunId(),
                Invocation.builder(script.toString()).workingDir(dir).build(), dir).build());

        assertThat(outcome.termination().kind()).isEqualTo(Termination.Kind.START_FAILED);
        assertThat(outcome.termination().reason()).isEqualTo("failed to execute " + script + ": No such file or directory");
        assertThat(outcome.exitCode()).isNull();
    }

    @Test
    void rejectsASecondRunWithTheSameIdWhileTheFirstRunsAndAnyRunAfterClose() throws Exception {
        String runId = Runs.newRunId();
        Runs.Lines lines = new Runs.Lines();
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<ProcessOutcome> first = pool.submit(() -> supervisor.run(ProcessRequest.builder(runId,
                    Runs.sh(dir, "echo ready; sleep 30"), dir).listener(lines).build()));
            assertThat(lines.await("ready"::equals, 10)).isTrue();
            Path other = Files.createDirectories(dir.resolve("other"));

            assertThatThrownBy(() -> supervisor.run(ProcessRequest.builder(runId, Runs.sh(other, "true"), other).build()))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("already running");
            assertThat(supervisor.running()).containsExactly(runId);

            supervisor.close();
            assertThat(first.get(30, TimeUnit.SECONDS).termination().kind()).isEqualTo(Termination.Kind.SHUTDOWN);
            assertThatThrownBy(() -> supervisor.run(ProcessRequest.builder(Runs.newRunId(), Runs.sh(other, "true"), other).build()))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void leavesNoProcessWithTheRunMarkerAfterANormalExit() throws Exception {
        String runId = Runs.newRunId();
        supervisor.run(ProcessRequest.builder(runId, Runs.sh(dir, "sleep 0.1 & echo done"), dir).build());

        assertThat(RunMarker.find(runId)).isEmpty();
    }
}
