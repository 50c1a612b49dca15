package dev.harness4j.bench;

import static dev.harness4j.bench.TaskSuiteTest.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.harness4j.core.HarnessRegistry;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.ShellHarness;
import dev.harness4j.core.queue.RunQueue;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A bench given a baseline compares itself with it: printed after the summary and in its report. */
class BenchBaselineTest {
    @TempDir Path tmp;

    private TaskSuite suite() throws Exception {
        Path suite = tmp.resolve("mini");
        task(suite, "answer", """
                {"instruction": "Write 42 to answer.txt", "setup": "echo seed > seed.txt",
                 "verify": {"command": "test \\"$(cat answer.txt)\\" = 42"}}
                """);
        return TaskSuite.load(suite);
    }

    private static BenchPlan plan(Bench bench, TaskSuite suite, String id, String answer) {
        return bench.plan().suite(suite).id(id).harnesses(ShellHarness.ID).provider("local").models("m")
                .option("script", "echo " + answer + " > answer.txt").build();
    }

    private HarnessRunner runner() {
        return HarnessRunner.builder().stateDir(tmp.resolve("state"))
                .registry(HarnessRegistry.builder().add(new ShellHarness()).build()).providers(ShellHarness.provider()).build();
    }

    @Test
    void aBenchWithABaselinePrintsTheComparisonAndPutsItInItsReport() throws Exception {
        TaskSuite suite = suite();
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(text, true, StandardCharsets.UTF_8);
        try (HarnessRunner runner = runner()) {
            BenchRun before = Bench.builder(runner).out(out, false).build().run(plan(Bench.builder(runner).build(), suite,
                    "before", "41"));
            assertThat(before.comparison()).as("no baseline, no comparison").isNull();

            Bench bench = Bench.builder(runner).out(out, false).baseline(BenchBaseline.of("before")).build();
            BenchRun after = bench.run(plan(bench, suite, "after", "42"));

            assertThat(after.comparison().newlyPassing()).extracting(BenchComparison.Cell::task).containsExactly("answer");
            assertThat(after.comparison().newlyFailing()).isEmpty();
            assertThat(text.toString(StandardCharsets.UTF_8)).contains("compared with bench before:");
            assertThat(Files.readString(tmp.resolve("state/reports/after/index.html"))).contains("id=\"compare\"");
            assertThat(Files.readString(tmp.resolve("state/reports/before/index.html"))).doesNotContain("id=\"compare\"");
        }
    }

    @Test
    void aBaselineWithoutResultsIsRefusedBeforeAnythingIsQueued() throws Exception {
        TaskSuite suite = suite();
        try (HarnessRunner runner = runner()) {
            Bench bench = Bench.builder(runner).out(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                    false).baseline(BenchBaseline.of("nightly-41")).build();

            assertThatThrownBy(() -> bench.run(plan(bench, suite, "nightly-42", "42"))).isInstanceOf(BenchPlanException.class)
                    .hasMessageContaining("the baseline bench 'nightly-41' has no results in " + tmp.resolve("state"));
            Bench itself = Bench.builder(runner).baseline(BenchBaseline.of("nightly-42")).build();
            assertThatThrownBy(() -> itself.run(plan(itself, suite, "nightly-42", "42")))
                    .hasMessageContaining("the baseline 'nightly-42' is the bench being run");

            assertThat(RunQueue.builder().stateDir(tmp.resolve("state")).build().entries()).isEmpty();
            assertThat(runner.results().all()).isEmpty();
        }
    }
}
