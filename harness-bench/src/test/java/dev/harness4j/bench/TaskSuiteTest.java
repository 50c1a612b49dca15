package dev.harness4j.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.harness4j.core.GitFixture;
import dev.harness4j.core.HarnessRegistry;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.ShellHarness;
import dev.harness4j.core.queue.RunQueue;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TaskSuiteTest {
    @TempDir Path tmp;

    static Path task(Path suite, String dir, String json) throws IOException {
        Path d = Files.createDirectories(suite.resolve(dir));
        Files.writeString(d.resolve("task.json"), json);
        return d;
    }

    @Test
    void loadsTasksWithInlineAndFileInstructionsSetupLimitsVerifyFilesAndTags() throws Exception {
        Path suite = tmp.resolve("basics");
        Path a = task(suite, "a-inline", """
                {"id": "answer", "instruction": "Write 42 to answer.txt", "setup": "echo seed > seed.txt",
                 "limits": {"max_runtime_seconds": 60, "max_turns": 5},
                 "verify": {"command": "sh verify/check.sh", "timeout_seconds": 30}, "tags": ["shell", "tiny"]}
                """);
        Files.createDirectories(a.resolve("verify"));
        Path repo = GitFixture.repo(tmp.resolve("repo"));
        Path b = task(suite, "b-file", "{\"baseline\": {\"repo\": \"../../repo\", \"ref\": \"main\"},"
                + " \"verify\": {\"command\": \"true\", \"files\": \"checks\"}}");
        Files.writeString(b.resolve("instruction.md"), "Do the thing\n");
        Files.createDirectories(b.resolve("checks"));
        Files.writeString(suite.resolve("README.txt"), "not a task");

        TaskSuite s = TaskSuite.load(suite);

        assertThat(s.id()).isEqualTo("basics");
        assertThat(s.tasks()).extracting(BenchTask::id).containsExactly("answer", "b-file");
        BenchTask answer = s.task("answer").orElseThrow();
        assertThat(answer.setup()).contains("echo seed > seed.txt");
        assertThat(answer.limits().orElseThrow().maxRuntime()).isEqualTo(Duration.ofSeconds(60));
        assertThat(answer.limits().orElseThrow().maxTurns()).isEqualTo(5);
        assertThat(answer.verify().orElseThrow().timeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(answer.verify().orElseThrow().files()).isEqualTo(a.resolve("verify").toAbsolutePath());
        assertThat(answer.tags()).containsExactly("shell", "tiny");
        BenchTask fromFile = s.task("b-file").orElseThrow();
        assertThat(fromFile.instruction()).isEqualTo("Do the thing\n");
        assertThat(fromFile.repo()).contains(repo.toAbsolutePath().normalize());
        assertThat(fromFile.ref()).contains("main");
        assertThat(fromFile.verify().orElseThrow().timeout()).isEqualTo(TaskVerify.DEFAULT_TIMEOUT);
        assertThat(fromFile.verify().orElseThrow().files()).isEqualTo(b.resolve("checks").toAbsolutePath());
    }

    @Test
    void everyProblemOfEveryTaskIsReportedAtOnce() throws Exception {
        Path suite = tmp.resolve("broken");
        task(suite, "no-instruction", "{\"verify\": {\"command\": \"true\"}}");
        task(suite, "unknown-field", "{\"instruction\": \"x\", \"verify\": {\"command\": \"true\", \"timout\": 3}, \"prompt\": \"y\"}");
        task(suite, "no-verify", "{\"instruction\": \"x\"}");
        task(suite, "dup-1", "{\"id\": \"same\", \"instruction\": \"x\", \"verify\": {\"command\": \"true\"}}");
        task(suite, "dup-2", "{\"id\": \"same\", \"instruction\": \"y\", \"verify\": {\"command\": \"true\"}}");
        task(suite, "not-json", "{\"instruction\": ");

        assertThatThrownBy(() -> TaskSuite.load(suite)).isInstanceOfSatisfying(BenchPlanException.class, e -> {
            assertThat(e.problems()).anyMatch(p -> p.contains("no-instruction") && p.contains("no instruction"));
            assertThat(e.problems()).anyMatch(p -> p.contains("unknown-field") && p.contains("\"prompt\""));
            assertThat(e.problems()).anyMatch(p -> p.contains("unknown-field") && p.contains("\"verify.timout\""));
            assertThat(e.problems()).anyMatch(p -> p.contains("no-verify") && p.contains("no verify command"));
            assertThat(e.problems()).anyMatch(p -> p.contains("two tasks have the id 'same'"));
            assertThat(e.problems()).anyMatch(p -> p.contains("not-json") && p.contains("not readable JSON"));
            assertThat(e.getMessage()).contains("nothing was queued");
        });
    }

    @Test
    void aFailingSetupIsReportedWithTheOtherProblemsAndNothingIsQueued() throws Exception {
        Path suite = tmp.resolve("setup-fails");
        task(suite, "ok", "{\"instruction\": \"x\", \"setup\": \"echo fine > f.txt\", \"verify\": {\"command\": \"true\"}}");
        task(suite, "bad", "{\"instruction\": \"x\", \"setup\": \"echo cannot build the repo >&2; exit 4\","
                + " \"verify\": {\"command\": \"true\"}}");
        Path state = tmp.resolve("state");
        try (HarnessRunner runner = HarnessRunner.builder().stateDir(state)
                .registry(HarnessRegistry.builder().add(new ShellHarness()).build()).providers(ShellHarness.provider())
                .build()) {
            assertThatThrownBy(() -> BenchPlan.builder(runner).suite(TaskSuite.load(suite)).harnesses(ShellHarness.ID, "nope")
                    .provider("local").build())
                    .isInstanceOfSatisfying(BenchPlanException.class, e -> assertThat(e.problems())
                            .anyMatch(p -> p.contains("unknown harness 'nope'")));
            assertThatThrownBy(() -> BenchPlan.builder(runner).suite(TaskSuite.load(suite)).harnesses(ShellHarness.ID)
                    .provider("local").build())
                    .isInstanceOfSatisfying(BenchPlanException.class, e -> assertThat(e.problems())
                            .singleElement().asString().contains("task bad", "exited 4", "cannot build the repo"));
            assertThat(RunQueue.builder().stateDir(state).build().entries()).isEmpty();
        }
    }

    @Test
    void tasksBuiltInCodeWithOneIdTwiceAreRefused() {
        BenchTask one = BenchTask.builder("t").instruction("a").verify(TaskVerify.of("true")).build();
        BenchTask two = BenchTask.builder("t").instruction("b").verify(TaskVerify.of("true")).build();
        assertThatThrownBy(() -> TaskSuite.of("s", java.util.List.of(one, two)))
                .isInstanceOfSatisfying(BenchPlanException.class, e -> assertThat(e.problems())
                        .singleElement().asString().contains("'t'"));
        assertThatThrownBy(() -> BenchTask.builder("t").verify(TaskVerify.of("true")).build())
                .hasMessageContaining("no instruction");
    }

    @Test
    void readsAReferenceSolutionFromAScriptFileOrInlineCommandsAndRefusesBadOnes() throws Exception {
        Path suite = tmp.resolve("solved");
        Path file = task(suite, "file", "{\"instruction\": \"x\", \"verify\": {\"command\": \"true\"},"
                + " \"solution\": \"solution/solve.sh\"}");
        Files.createDirectories(file.resolve("solution"));
        Files.writeString(file.resolve("solution/solve.sh"), "echo 42 > answer.txt\n");
        task(suite, "inline", "{\"instruction\": \"x\", \"verify\": {\"command\": \"true\"},"
                + " \"solution\": {\"command\": \"echo 42 > answer.txt\"}}");
        task(suite, "none", "{\"instruction\": \"x\", \"verify\": {\"command\": \"true\"}}");

        TaskSuite s = TaskSuite.load(suite);

        TaskSolution fromFile = s.task("file").orElseThrow().solution().orElseThrow();
        assertThat(fromFile.script()).isEqualTo("echo 42 > answer.txt\n");
        assertThat(fromFile.source()).isEqualTo(file.resolve("solution/solve.sh").toAbsolutePath());
        assertThat(s.task("inline").orElseThrow().solution()).contains(TaskSolution.of("echo 42 > answer.txt"));
        assertThat(s.task("none").orElseThrow().solution()).isEmpty();

        Path bad = tmp.resolve("bad-solutions");
        task(bad, "missing", "{\"instruction\": \"x\", \"verify\": {\"command\": \"true\"}, \"solution\": \"solve.sh\"}");
        task(bad, "outside", "{\"instruction\": \"x\", \"verify\": {\"command\": \"true\"}, \"solution\": \"../missing/task.json\"}");
        task(bad, "typo", "{\"instruction\": \"x\", \"verify\": {\"command\": \"true\"}, \"solution\": {\"cmd\": \"true\"}}");
        task(bad, "number", "{\"instruction\": \"x\", \"verify\": {\"command\": \"true\"}, \"solution\": 3}");
        assertThatThrownBy(() -> TaskSuite.load(bad)).isInstanceOfSatisfying(BenchPlanException.class, e -> {
            assertThat(e.problems()).anyMatch(p -> p.contains("missing") && p.contains("solution solve.sh is not a file"));
            assertThat(e.problems()).anyMatch(p -> p.contains("outside") && p.contains("is not a file inside the task dir"));
            assertThat(e.problems()).anyMatch(p -> p.contains("typo") && p.contains("\"solution.cmd\""));
            assertThat(e.problems()).anyMatch(p -> p.contains("number") && p.contains("solution must be a script's path"));
        });
    }
}
