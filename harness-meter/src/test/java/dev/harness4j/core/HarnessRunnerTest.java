package dev.harness4j.core;

import static dev.harness4j.core.GitFixture.fingerprint;
import static dev.harness4j.core.GitFixture.git;
import static dev.harness4j.core.GitFixture.repo;
import static dev.harness4j.core.GitFixture.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.HarnessEvent;
import dev.harness4j.api.HarnessNotInstalledException;
import dev.harness4j.api.Isolation;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.ProviderNotResolvableException;
import dev.harness4j.api.RunSpec;
import dev.harness4j.api.Termination;
import dev.harness4j.api.UnknownHarnessException;
import dev.harness4j.core.workspace.NotAGitRepositoryException;
import dev.harness4j.core.workspace.StateDirNotWritableException;
import dev.harness4j.core.workspace.UnknownRefException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class HarnessRunnerTest {
    @TempDir Path tmp;

    private final List<HarnessEvent> events = new CopyOnWriteArrayList<>();
    private Path base;
    private HarnessRunner runner;

    @BeforeEach
    void setUp() {
        base = repo(tmp.resolve("base"));
        runner = runnerAt(tmp.resolve("state"));
    }

    @AfterEach
    void tearDown() {
        runner.close();
    }

    private HarnessRunner runnerAt(Path stateDir) {
        return HarnessRunner.builder().stateDir(stateDir)
                .registry(HarnessRegistry.builder().add(new ShellHarness()).build())
                .providers(ShellHarness.provider())
                .listener(events::add)
                .build();
    }

    private RunSpec.Builder spec(String script) {
        return RunSpec.builder(ShellHarness.ID, "local").model("gemma4:31b").prompt("do it").baseline(base)
                .option("script", script);
    }

    private static JsonNode meta(RunRecord r) throws Exception {
        return new ObjectMapper().readTree(r.metaFile().toFile());
    }

    @ParameterizedTest
    @EnumSource(Isolation.class)
    void exitZeroWithACommitIsCompletedAndTheBaselineStaysByteIdentical(Isolation mode) throws Exception {
        Map<String, String> before = fingerprint(base);
        RunRecord r = runner.run(spec("echo work > work.txt && git add -A && git commit -qm work && echo done")
                .isolation(mode).task("t1").build());

        assertThat(r.result().outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(r.stage()).isNull();
        assertThat(r.changes().headMoved()).isTrue();
        assertThat(r.resultDir().getParent()).isEqualTo(tmp.resolve("state/results/t1/sh-test__local__gemma4-31b"));
        assertThat(r.resultDir().getFileName().toString()).isEqualTo(r.runId());
        assertThat(r.resultDir()).isDirectoryContaining(p -> p.getFileName().toString().equals("meta.json"));
        for (String f : List.of("meta.json", "diff.patch", "diffstat.txt", "transcript.log", "events.jsonl")) {
            assertThat(r.resultDir().resolve(f)).exists();
        }
        assertThat(Files.readString(r.resultDir().resolve("diff.patch"))).contains("+work");
        assertThat(Files.readString(r.resultDir().resolve("transcript.log"))).contains("done");
        JsonNode m = meta(r);
        assertThat(m.get("schema_version").asInt()).isEqualTo(1);
        assertThat(m.get("run_id").asText()).isEqualTo(r.runId());
        assertThat(m.get("outcome").asText()).isEqualTo("completed");
        assertThat(m.get("model").asText()).isEqualTo("gemma4:31b");
        assertThat(m.get("resolved_model").asText()).isEqualTo("gemma4:31b");
        assertThat(m.get("provider").asText()).isEqualTo("local");
        assertThat(m.get("task").asText()).isEqualTo("t1");
        assertThat(m.get("stage").isNull()).isTrue();
        assertThat(m.get("exit_code").asInt()).isZero();
        assertThat(m.at("/termination/kind").asText()).isEqualTo("exited");
        assertThat(m.at("/baseline/base_commit").asText()).isEqualTo(git(base, "rev-parse", "HEAD"));
        assertThat(m.at("/baseline/ref").asText()).isEqualTo("main");
        assertThat(m.get("head_after").asText()).isEqualTo(r.changes().headCommit()).isNotEqualTo(r.baseline().commit());
        assertThat(m.at("/changes/files_changed").asInt()).isEqualTo(1);
        assertThat(m.at("/changes/insertions").asInt()).isEqualTo(1);
        assertThat(m.at("/changes/files/0").asText()).isEqualTo("work.txt");
        assertThat(m.at("/tokens/input").isNull()).isTrue();
        assertThat(m.at("/tokens/source").isNull()).isTrue();
        assertThat(m.get("cost").isNull()).isTrue();
        assertThat(m.at("/served_model/verdict").asText()).isEqualTo("unmeasured");
        assertThat(m.at("/login/status").asText()).isEqualTo("unknown"); // ShellHarness has no probe: LoginProbeTest
        assertThat(m.get("branch").isNull()).isTrue();
        assertThat(m.get("duration_ms").asLong()).isGreaterThanOrEqualTo(0);
        assertThat(tmp.resolve("state/runs")).isEmptyDirectory();
        assertThat(fingerprint(base)).isEqualTo(before);
    }

    @Test
    void exitZeroWithOnlyAnUntrackedFileIsCompleted() throws Exception {
        RunRecord r = runner.run(spec("echo new > untracked.txt").build());
        assertThat(r.result().outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(r.changes().dirty()).isTrue();
        assertThat(r.changes().headMoved()).isFalse();
        assertThat(r.changes().files()).containsExactly("untracked.txt");
    }

    @Test
    void aRepositoryTheAgentInitialisedWithoutACommitIsLeftOutWithANoteAndTheRestIsCaptured() throws Exception {
        RunRecord r = runner.run(spec("mkdir app && git -C app init -q && echo inner > app/main.txt && echo outer > notes.txt")
                .build());

        assertThat(r.result().outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(r.changes().files()).containsExactly("notes.txt");
        assertThat(r.notes()).first().asString().startsWith("app/ is a git repository without a commit");
        assertThat(r.notes()).hasSize(2).last().asString().contains("no model request went through the meter");
        assertThat(meta(r).get("notes").get(0).asText()).startsWith("app/ is a git repository without a commit");
    }

    @Test
    void exitZeroWithNothingChangedIsNoOpAndTheScratchFilesDoNotCount() throws Exception {
        RunRecord r = runner.run(spec("cat \"$SCRATCH/config.json\" && echo more > \"$SCRATCH/state.txt\"").build());
        assertThat(r.result().outcome()).isEqualTo(Outcome.NO_OP);
        assertThat(r.changes().changed()).isFalse();
        assertThat(Files.readString(r.resultDir().resolve("transcript.log"))).contains("gemma4:31b");
        assertThat(Files.size(r.resultDir().resolve("diff.patch"))).isZero();
    }

    @Test
    void aNonZeroExitIsAnErrorAndItsDirtyTreeNeverReachesTheBaseline() throws Exception {
        Map<String, String> before = fingerprint(base);
        RunRecord r = runner.run(spec("echo half > README.md; echo broken >&2; exit 3").build());
        assertThat(r.result().outcome()).isEqualTo(Outcome.ERROR);
        assertThat(r.exitCode()).isEqualTo(3);
        assertThat(meta(r).get("exit_code").asInt()).isEqualTo(3);
        assertThat(Files.readString(r.resultDir().resolve("transcript.log"))).contains("broken");
        assertThat(fingerprint(base)).isEqualTo(before);
    }

    @Test
    void aSecretPrintedByTheHarnessNeverAppearsInAnyResultFile() throws Exception {
        RunRecord r = runner.run(spec("echo key=$TEST_KEY; echo extra=$EXTRA_SECRET >&2; echo $TEST_KEY > leaked.txt; "
                + "git add -A && git commit -qm \"leak $TEST_KEY\"; echo $TEST_KEY")
                .option("extra-secret", "xtra-SECRET-99").build());
        assertThat(r.result().outcome()).isEqualTo(Outcome.COMPLETED);
        List<Path> files;
        try (Stream<Path> s = Files.walk(tmp.resolve("state/results"))) {
            files = s.filter(Files::isRegularFile).toList();
        }
        assertThat(files).hasSize(7).anySatisfy(f -> assertThat(f.getFileName()).hasToString("requests.jsonl"))
                .anySatisfy(f -> assertThat(f.getFileName()).hasToString("trajectory.json"));
        for (Path f : files) {
            String text = new String(Files.readAllBytes(f), StandardCharsets.UTF_8);
            assertThat(text).as(f.toString()).doesNotContain(ShellHarness.KEY).doesNotContain("xtra-SECRET-99");
        }
        assertThat(Files.readString(r.resultDir().resolve("transcript.log"))).contains("key=***").contains("extra=***");
        assertThat(Files.readString(r.resultDir().resolve("diff.patch"))).contains("+***");
        assertThat(events).filteredOn(e -> e instanceof HarnessEvent.OutputLine)
                .allSatisfy(e -> assertThat(((HarnessEvent.OutputLine) e).text()).doesNotContain(ShellHarness.KEY));
    }

    @Test
    void aMissingBinaryEndsWithAStartFailedErrorOnDisk() throws Exception {
        RunRecord r = runner.run(spec("true").option("binary", tmp.resolve("no-such-cli").toString()).build());
        assertThat(r.result().outcome()).isEqualTo(Outcome.ERROR);
        assertThat(r.termination().kind()).isEqualTo(Termination.Kind.START_FAILED);
        assertThat(r.stage()).isEqualTo(RunRecord.Stage.RUN);
        JsonNode m = meta(r);
        assertThat(m.get("outcome").asText()).isEqualTo("error");
        assertThat(m.get("stage").asText()).isEqualTo("run");
        assertThat(m.at("/termination/kind").asText()).isEqualTo("start_failed");
        assertThat(m.get("reason").asText()).contains("could not start");
        assertThat(tmp.resolve("state/runs")).isEmptyDirectory();
    }

    @Test
    void aPrepareFailureEndsWithAnErrorOnDiskAtStagePrepare() throws Exception {
        RunRecord r = runner.run(spec("true").option("fail-prepare", "yes").build());
        assertThat(r.result().outcome()).isEqualTo(Outcome.ERROR);
        JsonNode m = meta(r);
        assertThat(m.get("stage").asText()).isEqualTo("prepare");
        assertThat(m.get("reason").asText()).contains("speaks no API");
        assertThat(m.get("termination").isNull()).isTrue();
        assertThat(tmp.resolve("state/runs")).isEmptyDirectory();
    }

    @Test
    void badInputDetectableBeforeTheRunStartsThrowsAndWritesNothing() throws Exception {
        assertThatThrownBy(() -> runner.run(RunSpec.builder("nope", "local").prompt("p").baseline(base).build()))
                .isInstanceOf(UnknownHarnessException.class).hasMessageContaining("sh-test");
        assertThatThrownBy(() -> runner.run(RunSpec.builder(ShellHarness.ID, "cloud").prompt("p").baseline(base).build()))
                .isInstanceOf(ProviderNotResolvableException.class).hasMessageContaining("'cloud'").hasMessageContaining("[local]");
        Path plain = Files.createDirectories(tmp.resolve("plain"));
        assertThatThrownBy(() -> runner.run(spec("true").baseline(plain).build()))
                .isInstanceOf(NotAGitRepositoryException.class);
        assertThatThrownBy(() -> runner.run(spec("true").ref("no-such-ref").build()))
                .isInstanceOf(UnknownRefException.class);
        HarnessRunner uninstalled = HarnessRunner.builder().stateDir(tmp.resolve("state"))
                .registry(HarnessRegistry.builder().add(new ShellHarness()).build())
                .installations(Installations.builder().noDefaultSearch().build())
                .providers(ShellHarness.provider()).build();
        assertThatThrownBy(() -> uninstalled.run(spec("true").build()))
                .isInstanceOf(HarnessNotInstalledException.class).hasMessageContaining("apt-get install dash");
        uninstalled.close();
        Path file = Files.writeString(tmp.resolve("file"), "x");
        try (HarnessRunner unwritable = runnerAt(file.resolve("state"))) {
            assertThatThrownBy(() -> unwritable.run(spec("true").build()))
                    .isInstanceOf(StateDirNotWritableException.class).hasMessageContaining("not writable");
        }
        assertThat(tmp.resolve("state/results")).satisfiesAnyOf(
                p -> assertThat(p).doesNotExist(), p -> assertThat(p).isEmptyDirectory());
    }

    @Test
    void aDirtyBaselineIsRunFromItsCommittedStateAndTheMetaSaysSo() throws Exception {
        write(base, "README.md", "local edit\n");
        Map<String, String> before = fingerprint(base);
        RunRecord r = runner.run(spec("cat README.md").build());
        assertThat(r.result().outcome()).isEqualTo(Outcome.NO_OP);
        JsonNode m = meta(r);
        assertThat(m.at("/baseline/dirty").asBoolean()).isTrue();
        assertThat(m.at("/notes/0").asText()).contains("uncommitted");
        assertThat(Files.readString(r.resultDir().resolve("transcript.log"))).contains("hello").doesNotContain("local edit");
        assertThat(fingerprint(base)).isEqualTo(before);
    }

    @Test
    void statusEventsArriveInOrderAndAreRecordedWithTheOutput() throws Exception {
        RunRecord r = runner.run(spec("echo hello-events").build());
        assertThat(events).filteredOn(e -> e instanceof HarnessEvent.StatusChanged)
                .extracting(e -> ((HarnessEvent.StatusChanged) e).status())
                .containsSubsequence(HarnessEvent.Status.PREPARING, HarnessEvent.Status.RUNNING,
                        HarnessEvent.Status.CAPTURING, HarnessEvent.Status.FINISHED);
        assertThat(events).last().satisfies(e -> assertThat(((HarnessEvent.StatusChanged) e).detail()).isEqualTo("no-op"));
        String jsonl = Files.readString(r.resultDir().resolve("events.jsonl"));
        assertThat(jsonl).contains("\"status\":\"preparing\"").contains("\"text\":\"hello-events\"");
    }

    @Test
    void bailStopsARunningHarnessAndStillWritesTheResult() throws Exception {
        events.clear();
        HarnessRunner r2 = HarnessRunner.builder().stateDir(tmp.resolve("state"))
                .registry(HarnessRegistry.builder().add(new ShellHarness()).build())
                .providers(ShellHarness.provider())
                .listener(e -> {
                    if (e instanceof HarnessEvent.OutputLine o && o.text().equals("started")) {
                        runner.bail(o.runId()); // the wrong runner: must not find it
                        events.add(e);
                    }
                })
                .build();
        try (r2) {
            ExecutorService pool = Executors.newSingleThreadExecutor();
            Future<RunRecord> f = pool.submit(() -> r2.run(spec("echo started; exec sleep 60").build(), "run-bail-" + ProcessHandle.current().pid()));
            while (events.isEmpty()) {
                Thread.onSpinWait();
            }
            assertThat(r2.bail("run-bail-" + ProcessHandle.current().pid())).isTrue();
            RunRecord r = f.get();
            pool.shutdown();
            assertThat(r.result().outcome()).isEqualTo(Outcome.BAILED);
            assertThat(r.termination().kind()).isEqualTo(Termination.Kind.BAILED);
            assertThat(meta(r).get("outcome").asText()).isEqualTo("bailed");
            assertThat(r2.bail("run-bail-" + ProcessHandle.current().pid())).isFalse();
        }
    }

    @Test
    void concurrentRunsAreIndependent() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            List<Future<RunRecord>> fs = List.of(
                    pool.submit(() -> runner.run(spec("echo a > a.txt").model("m-a").build())),
                    pool.submit(() -> runner.run(spec("true").model("m-b").build())),
                    pool.submit(() -> runner.run(spec("exit 1").model("m-c").isolation(Isolation.WORKTREE).build())));
            assertThat(fs.get(0).get().result().outcome()).isEqualTo(Outcome.COMPLETED);
            assertThat(fs.get(1).get().result().outcome()).isEqualTo(Outcome.NO_OP);
            assertThat(fs.get(2).get().result().outcome()).isEqualTo(Outcome.ERROR);
        } finally {
            pool.shutdown();
        }
        assertThat(tmp.resolve("state/results/default")).isDirectoryContaining(p -> p.endsWith("sh-test__local__m-a"))
                .isDirectoryContaining(p -> p.endsWith("sh-test__local__m-c"));
        assertThat(tmp.resolve("state/runs")).isEmptyDirectory();
        assertThat(git(base, "worktree", "list").lines()).hasSize(1);
    }

    @Test
    void theResultIsPushedToAHarnesstestsBranchWhenTheBaselineHasARemote() throws Exception {
        Path remote = Files.createDirectories(tmp.resolve("remote.git"));
        git(remote, "init", "-q", "--bare");
        git(base, "remote", "add", "origin", remote.toString());
        RunRecord unpushed = runner.run(spec("echo pushed > p.txt && git add -A && git commit -qm p").build());
        assertThat(unpushed.branch()).as("no push unless asked").isNull();
        assertThat(meta(unpushed).get("branch").isNull()).isTrue();
        assertThat(git(remote, "for-each-ref")).isEmpty();

        runner.close();
        runner = HarnessRunner.builder().stateDir(tmp.resolve("state"))
                .registry(HarnessRegistry.builder().add(new ShellHarness()).build())
                .providers(ShellHarness.provider()).pushBranches(true).build();
        RunRecord r = runner.run(spec("echo pushed > p.txt && git add -A && git commit -qm p").task("t1").build());
        assertThat(r.branch().pushed()).isTrue();
        JsonNode m = meta(r);
        String branch = "harnesstests/t1/sh-test__local__gemma4-31b/" + r.runId();
        assertThat(m.at("/branch/pushed").asBoolean()).isTrue();
        assertThat(m.at("/branch/name").asText()).isEqualTo(branch);
        assertThat(git(remote, "show", branch + ":p.txt")).isEqualTo("pushed");

        git(base, "remote", "set-url", "origin", tmp.resolve("gone.git").toString());
        RunRecord failed = runner.run(spec("echo x > x.txt").build());
        assertThat(failed.result().outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(meta(failed).at("/branch/pushed").asBoolean()).isFalse();
        assertThat(meta(failed).at("/branch/error").asText()).contains("gone.git");
    }
}
