package dev.harness4j.bench;

import static dev.harness4j.bench.TaskSuiteTest.task;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.bench.SuiteCheckReport.Finding;
import dev.harness4j.bench.SuiteCheckReport.Kind;
import dev.harness4j.bench.reference.NopHarness;
import dev.harness4j.bench.reference.OracleHarness;
import dev.harness4j.core.HarnessRegistry;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.stages.SandboxStage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The suite check on planted tasks, each in a real git repository built by its setup, judged by
 * real verifier processes after real nop and oracle runs under the runner's sandbox: a sound task
 * passes, and each kind of broken task is named with what is wrong.
 */
class SuiteCheckTest {
    /** A verifier that passes only when answer.txt holds 42. */
    static final String CHECK_42 = "test \\\"$(cat answer.txt 2>/dev/null)\\\" = 42";

    @TempDir Path tmp;

    private HarnessRunner runner(Path state) {
        return HarnessRunner.builder().stateDir(state)
                .registry(HarnessRegistry.builder().add(new NopHarness()).add(new OracleHarness()).build())
                // the flaky task's verifier reads the results of earlier runs (the state dir is hidden otherwise)
                .stage(SandboxStage.builder().readOnly(state.resolve("results")).build())
                .build();
    }

    @Test
    void namesEachKindOfBrokenTaskAndPassesTheSoundOne() throws Exception {
        Path state = tmp.resolve("state");
        Path suite = tmp.resolve("planted");
        task(suite, "sound", """
                {"instruction": "Write 42 to answer.txt", "setup": "echo seed > seed.txt",
                 "verify": {"command": "%s"}, "solution": {"command": "echo 42 > answer.txt"}}
                """.formatted(CHECK_42));
        task(suite, "lax", """
                {"instruction": "Write 42 to answer.txt", "setup": "echo seed > seed.txt",
                 "verify": {"command": "test -f seed.txt"}, "solution": {"command": "echo 42 > answer.txt"}}
                """);
        Path wrong = task(suite, "wrong-solution", """
                {"instruction": "Write 42 to answer.txt", "setup": "echo seed > seed.txt",
                 "verify": {"command": "%s"}, "solution": "solution/solve.sh"}
                """.formatted(CHECK_42));
        Files.createDirectories(wrong.resolve("solution"));
        Files.writeString(wrong.resolve("solution/solve.sh"), "echo 41 > answer.txt\n");
        task(suite, "crashing-solution", """
                {"instruction": "Write 42 to answer.txt", "setup": "echo seed > seed.txt",
                 "verify": {"command": "%s"}, "solution": {"command": "echo 42 > answer.txt; echo no disk >&2; exit 3"}}
                """.formatted(CHECK_42));
        task(suite, "unsolved", """
                {"instruction": "Write 42 to answer.txt", "setup": "echo seed > seed.txt",
                 "verify": {"command": "%s"}}
                """.formatted(CHECK_42));
        // passes the first time the oracle runs it, fails once an oracle result of it exists
        Path earlier = state.resolve("results/planted-check-flaky/oracle__none__none");
        task(suite, "flaky", """
                {"instruction": "Write 42 to answer.txt", "setup": "echo seed > seed.txt",
                 "verify": {"command": "%s && test ! -d '%s'"}, "solution": {"command": "echo 42 > answer.txt"}}
                """.formatted(CHECK_42, earlier));

        SuiteCheckReport report;
        try (HarnessRunner runner = runner(state)) {
            report = SuiteCheck.builder(runner).build().check(TaskSuite.load(suite));
        }

        assertThat(report.brokenTasks()).containsExactly("crashing-solution", "flaky", "lax", "wrong-solution");
        assertThat(report.broken()).isTrue();
        List<Finding> findings = report.findings();
        assertThat(findings).extracting(Finding::task, Finding::kind).containsExactly(
                org.assertj.core.groups.Tuple.tuple("crashing-solution", Kind.SOLUTION_FAILS),
                org.assertj.core.groups.Tuple.tuple("flaky", Kind.NON_DETERMINISTIC),
                org.assertj.core.groups.Tuple.tuple("lax", Kind.ACCEPTS_UNTOUCHED),
                org.assertj.core.groups.Tuple.tuple("wrong-solution", Kind.SOLUTION_FAILS),
                org.assertj.core.groups.Tuple.tuple("unsolved", Kind.NO_SOLUTION));
        String text = report.text();
        assertThat(text).contains(
                "task lax: verifier accepts the untouched repository (nop: passed)",
                "task wrong-solution: reference solution does not pass (oracle: failed; failed)",
                "task crashing-solution: reference solution does not pass (oracle: not-verified, run ended error: "
                        + "the reference solution exited 3: no disk",
                "task flaky: non-deterministic: the oracle's runs got different verdicts (oracle: passed; failed)",
                "task unsolved: no reference solution (warning",
                "suite check FAILED: 4 of 6 tasks broken: crashing-solution, flaky, lax, wrong-solution");
        SuiteCheckReport.TaskCheck sound = report.tasks().stream().filter(t -> t.task().equals("sound")).findFirst()
                .orElseThrow();
        assertThat(sound.findings()).isEmpty();
        assertThat(sound.nop().verify()).isEqualTo("failed");
        assertThat(sound.oracle()).extracting(SuiteCheckReport.Verdict::verify).containsExactly("passed", "passed");

        // every run is an ordinary run on disk: a reference, unmetered, with the verifier's log
        JsonNode meta = new ObjectMapper().readTree(sound.oracle().get(0).resultDir().resolve("meta.json").toFile());
        assertThat(meta.path("harness").asText()).isEqualTo("oracle");
        assertThat(meta.path("provider").asText()).isEqualTo("none");
        assertThat(meta.path("outcome").asText()).isEqualTo("completed");
        assertThat(meta.path("verify").path("status").asText()).isEqualTo("passed");
        assertThat(Files.readString(sound.oracle().get(0).resultDir().resolve("diff.patch"))).contains("+42");
        assertThat(Files.readString(sound.nop().resultDir().resolve("diff.patch"))).isBlank();
        assertThat(meta.path("tokens").path("input").asLong(-1)).as("it called no model").isZero();
        assertThat(meta.path("meter").isNull()).as("never metered").isTrue();
        assertThat(meta.path("sandbox").path("setting").asText()).as("the sandbox stage ran it").isEqualTo("auto");
        if (Files.isExecutable(Path.of("/usr/bin/bwrap"))) { // CI installs bubblewrap (scripts/install-sandbox.sh)
            assertThat(meta.path("sandbox").path("mode").asText()).isEqualTo("bubblewrap");
            assertThat(meta.path("sandbox").path("network").asText()).as("no meter, so no network").isEqualTo("none");
        }
    }

    @Test
    void aSoundSuitePassesAndItsRunsAreReferencesOffTheLeaderboard() throws Exception {
        Path state = tmp.resolve("state");
        Path suite = tmp.resolve("sound");
        Path t = task(suite, "answer", """
                {"instruction": "Write 42 to answer.txt", "setup": "echo seed > seed.txt",
                 "verify": {"command": "sh verify/check.sh"}, "solution": "solve.sh"}
                """);
        Files.createDirectories(t.resolve("verify"));
        Files.writeString(t.resolve("verify/check.sh"), CHECK_42.replace("\\\"", "\"") + "\n");
        Files.writeString(t.resolve("solve.sh"), "echo 42 > answer.txt\n");

        try (HarnessRunner runner = runner(state)) {
            SuiteCheckReport report = SuiteCheck.builder(runner).build().check(TaskSuite.load(suite));
            assertThat(report.broken()).as(report.text()).isFalse();
            assertThat(report.findings()).isEmpty();
            assertThat(report.text()).contains("suite check passed");

            BenchSummary summary = BenchSummary.read(runner.results()).forBench("sound-check");
            assertThat(summary.rows()).hasSize(3).allSatisfy(r -> assertThat(r.reference()).isTrue());
            BenchMetrics metrics = BenchMetrics.of(summary);
            assertThat(metrics.leaderboard()).isEmpty();
            assertThat(metrics.tasks()).isEmpty();
            assertThat(metrics.references()).extracting(BenchMetrics.ComboMetrics::harness).containsExactly("nop", "oracle");
            assertThat(SummaryFormat.leaderboard(metrics)).contains("references (not ranked", "nop: 0/1 passed",
                    "oracle: 2/2 passed");
            assertThat(SummaryFormat.table(summary)).contains("oracle (reference)");
            Path index = BenchReport.write(runner.results().resultsDir(), summary.rows(), metrics, null, tmp.resolve("report"));
            assertThat(Files.readString(index)).contains("References (not ranked", "<td>oracle</td>", "oracle (reference)")
                    .doesNotContain("<td>1</td><td>oracle</td>");
        }
    }
}
