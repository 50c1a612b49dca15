package dev.harness4j.core;

import static dev.harness4j.core.GitFixture.git;
import static dev.harness4j.core.GitFixture.repo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.CompletionMode;
import dev.harness4j.api.Execution;
import dev.harness4j.api.Harness;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.InstallInfo;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.Isolation;
import dev.harness4j.api.RunSpec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The run engine's defences: secrets in remotes, isolation from the baseline's refs, bad run ids, errors. */
class HarnessRunnerSafetyTest {
    @TempDir Path tmp;

    private Path base;
    private HarnessRunner runner;

    @BeforeEach
    void setUp() {
        base = repo(tmp.resolve("base"));
        runner = HarnessRunner.builder().stateDir(tmp.resolve("state"))
                .registry(HarnessRegistry.builder().add(new ShellHarness()).build())
                .providers(ShellHarness.provider())
                .pushBranches(true) // these tests check what a push may and may not carry
                .build();
    }

    @AfterEach
    void tearDown() {
        runner.close();
    }

    private RunSpec.Builder spec(String script) {
        return RunSpec.builder(ShellHarness.ID, "local").model("m1").prompt("do it").baseline(base)
                .option("script", script);
    }

    private static JsonNode meta(RunRecord r) throws Exception {
        return new ObjectMapper().readTree(r.metaFile().toFile());
    }

    private static String listing(Path dir) throws Exception {
        try (Stream<Path> files = Files.walk(dir)) {
            return String.join("\n", files.map(Path::toString).sorted().toList());
        }
    }

    private static String allResultText(Path dir) throws Exception {
        StringBuilder sb = new StringBuilder();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                sb.append(new String(Files.readAllBytes(f), StandardCharsets.UTF_8));
            }
        }
        return sb.toString();
    }

    @Test
    void aTokenInTheBaselinesRemoteUrlReachesNoResultFile() throws Exception {
        git(base, "remote", "add", "origin", "https://x-access-token:ghs_RunT0ken77@127.0.0.1:1/o/r.git");
        RunRecord r = runner.run(spec("echo token is ghs_RunT0ken77; echo w > w.txt").build());
        assertThat(r.branch().pushed()).isFalse();
        assertThat(meta(r).at("/branch/error").asText()).contains("https://127.0.0.1:1/o/r.git");
        assertThat(allResultText(tmp.resolve("state/results"))).doesNotContain("ghs_RunT0ken77").contains("token is ***");
    }

    /** Runs like {@link ShellHarness} but its interpret throws the given Error. */
    static final class ErrorHarness implements Harness {
        private final ShellHarness shell = new ShellHarness();

        @Override public String id() { return "err-test"; }
        @Override public CompletionMode completionMode() { return CompletionMode.OPAQUE; }
        @Override public InstallInfo installInfo() { return shell.installInfo(); }
        @Override public Invocation prepare(HarnessContext ctx) { return shell.prepare(ctx); }
        @Override public HarnessResult interpret(Execution ex) {
            throw new NoClassDefFoundError("com/example/MissingParser");
        }
    }

    @ParameterizedTest
    @EnumSource(Isolation.class)
    void anErrorThrownByInterpretStillWritesTheResultCleansUpAndIsRethrown(Isolation mode) throws Exception {
        try (HarnessRunner r = HarnessRunner.builder().stateDir(tmp.resolve("state"))
                .registry(HarnessRegistry.builder().add(new ErrorHarness()).build())
                .providers(ShellHarness.provider()).build()) {
            RunSpec s = RunSpec.builder("err-test", "local").model("m1").prompt("p").baseline(base)
                    .option("script", "echo w > w.txt").isolation(mode).build();
            assertThatThrownBy(() -> r.run(s, "run-err")).isInstanceOf(NoClassDefFoundError.class);
        }
        JsonNode m = new ObjectMapper().readTree(tmp.resolve("state/results/default/err-test__local__m1/run-err/meta.json").toFile());
        assertThat(m.get("run_id").asText()).isEqualTo("run-err");
        assertThat(m.get("outcome").asText()).isEqualTo("error");
        assertThat(m.get("stage").asText()).isEqualTo("capture");
        assertThat(m.get("reason").asText()).contains("NoClassDefFoundError").contains("com/example/MissingParser");
        assertThat(tmp.resolve("state/runs")).isEmptyDirectory();
        assertThat(git(base, "worktree", "list", "--porcelain")).doesNotContain("run-err");
    }

    @Test
    void aRunIdThatIsNoPlainNameIsRejectedBeforeAnyFileIsCreated() throws Exception {
        Path state = tmp.resolve("fresh-state");
        try (HarnessRunner r = HarnessRunner.builder().stateDir(state)
                .registry(HarnessRegistry.builder().add(new ShellHarness()).build())
                .providers(ShellHarness.provider()).build()) {
            String before = listing(tmp);
            for (String bad : new String[] {"../../x", "a/b", ".hidden", ""}) {
                assertThatThrownBy(() -> r.run(spec("echo x > x.txt").build(), bad))
                        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("runId");
            }
            assertThat(listing(tmp)).isEqualTo(before);
        }
        assertThat(tmp.resolve("x")).doesNotExist();
    }

    @Test
    void anAgentCannotPushToTheBaselineFromACloneButCanFetchAndTheResultBranchIsStillPushed() throws Exception {
        Path remote = Files.createDirectories(tmp.resolve("remote.git"));
        git(remote, "init", "-q", "--bare");
        git(base, "remote", "add", "origin", remote.toString());
        String refsBefore = git(base, "for-each-ref");
        RunRecord r = runner.run(spec("echo e > e.txt && git add -A && git commit -qm evil"
                + " && { git push origin HEAD:refs/heads/evil && echo PUSHED || echo push-refused; }"
                + " && { git push origin --tags && echo TAGS-PUSHED || echo tags-refused; }"
                + " && git fetch -q origin && echo fetched").isolation(Isolation.CLONE).build());
        String transcript = Files.readString(r.resultDir().resolve("transcript.log"));
        assertThat(transcript).contains("push-refused").contains("no-push-from-a-run").contains("fetched")
                .doesNotContain("PUSHED");
        assertThat(git(base, "for-each-ref")).isEqualTo(refsBefore).doesNotContain("evil");
        assertThat(r.branch().pushed()).isTrue();
        assertThat(git(remote, "show", r.branch().name() + ":e.txt")).isEqualTo("e");
        assertThat(r.branch().name()).isEqualTo("harnesstests/default/sh-test__local__m1/" + r.runId());
    }

    @Test
    void thePromptIsFramedByTheAutonomyPreambleByDefaultAndNotWhenSwitchedOff() throws Exception {
        RunRecord framed = runner.run(spec("echo \"$PROMPT\"").prompt("Create hello.txt").build());
        assertThat(Files.readString(framed.resultDir().resolve("transcript.log")))
                .contains("You are running headless", "Task:", "Create hello.txt");
        try (HarnessRunner plain = HarnessRunner.builder().stateDir(tmp.resolve("state2")).autonomyPreamble(false)
                .phaseReports(PhaseReports.GIT_ONLY)
                .registry(HarnessRegistry.builder().add(new ShellHarness()).build())
                .providers(ShellHarness.provider()).build()) {
            RunRecord r = plain.run(spec("echo \"[$PROMPT]\"").prompt("Create hello.txt").build());
            assertThat(Files.readString(r.resultDir().resolve("transcript.log")))
                    .contains("[Create hello.txt]").doesNotContain("You are running headless");
        }
    }

    @Test
    void aLiveRunsDirIsTheOwnersOnlyAndItsOutputFilesTooWhileItRuns() throws Exception {
        // unconfined: a sandboxed agent cannot see the io dir at all (SandboxTest), an unconfined one sees modes
        try (HarnessRunner unconfined = HarnessRunner.builder().stateDir(tmp.resolve("state-off"))
                .registry(HarnessRegistry.builder().add(new ShellHarness()).build())
                .providers(ShellHarness.provider()).sandbox(dev.harness4j.core.process.Sandbox.OFF).build()) {
            checkModes(unconfined);
        }
    }

    private void checkModes(HarnessRunner runner) throws Exception {
        RunRecord r = runner.run(spec("echo private-output; stat -c 'mode %a %n' \"$SCRATCH/..\" \"$SCRATCH/../io\""
                + " \"$SCRATCH/../io/stdout.log\" \"$SCRATCH/../io/stderr.log\" \"$SCRATCH/../io/transcript.log\"").build());
        String transcript = Files.readString(r.resultDir().resolve("transcript.log"));
        assertThat(transcript).containsPattern("mode 700 \\S*/runs/" + r.runId() + "/scratch/\\.\\.\\n")
                .containsPattern("mode 600 \\S*/io/stdout.log").containsPattern("mode 600 \\S*/io/stderr.log")
                .containsPattern("mode 600 \\S*/io/transcript.log");
    }
}
