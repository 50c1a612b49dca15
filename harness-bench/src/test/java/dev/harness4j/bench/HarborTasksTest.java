package dev.harness4j.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.bench.reference.NopHarness;
import dev.harness4j.bench.reference.OracleHarness;
import dev.harness4j.core.HarnessRegistry;
import dev.harness4j.core.HarnessRunner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Harbor task directories read as they are (written here from the format's public description),
 * and run: real nop and oracle runs, real {@code bash tests/test.sh} verifiers writing to
 * {@code /logs/verifier}.
 */
class HarborTasksTest {
    @TempDir Path tmp;

    /** Writes a Harbor task: {@code task.toml}, then each file by its path in the task dir. */
    static Path harbor(Path suite, String name, String toml, Map<String, String> files) throws Exception {
        Path d = Files.createDirectories(suite.resolve(name));
        Files.writeString(d.resolve("task.toml"), toml);
        for (Map.Entry<String, String> f : files.entrySet()) {
            Path p = d.resolve(f.getKey());
            Files.createDirectories(p.getParent());
            Files.writeString(p, f.getValue());
        }
        return d;
    }

    private static final String ANSWER_TEST = """
            #!/bin/bash
            if [[ "$(cat answer.txt 2>/dev/null)" == 42 ]]; then echo 1 > /logs/verifier/reward.txt
            else echo 0 > /logs/verifier/reward.txt; fi
            """;

    @Test
    void readsInstructionTimeoutsTagsMetadataTestsAndSolution() throws Exception {
        Path suite = tmp.resolve("harbor");
        Path dir = harbor(suite, "answer", """
                version = "1.0"
                [task]
                name = "demo/answer"
                keywords = ["arithmetic"]
                [metadata]
                difficulty = "easy"
                tags = ["trivial", "arithmetic"]
                [metadata.harness4j]
                primary_metric = "tests"
                pass_reward = 0.5
                [agent]
                timeout_sec = 90.0
                [verifier]
                timeout_sec = 30.5
                [environment]
                cpus = 1
                """, Map.of("instruction.md", "Write 42 to answer.txt\n", "tests/test.sh", ANSWER_TEST,
                "solution/solve.sh", "#!/bin/bash\necho 42 > answer.txt\n"));

        BenchTask t = TaskSuite.load(suite).task("answer").orElseThrow();

        assertThat(t.instruction()).isEqualTo("Write 42 to answer.txt\n");
        assertThat(t.limits().orElseThrow().maxRuntime()).isEqualTo(Duration.ofSeconds(90));
        TaskVerify v = t.verify().orElseThrow();
        assertThat(v.command()).isEqualTo("bash /tests/test.sh");
        assertThat(v.timeout()).isEqualTo(Duration.ofMillis(30_500));
        assertThat(v.files()).isEqualTo(dir.resolve("tests"));
        assertThat(v.layout()).isEqualTo(TaskVerify.Layout.HARBOR);
        assertThat(v.primaryMetric()).isEqualTo("tests");
        assertThat(v.passReward()).isEqualTo(0.5);
        assertThat(t.tags()).containsExactly("trivial", "arithmetic");
        assertThat(t.metadata()).containsEntry("version", "1.0").containsEntry("task.name", "demo/answer")
                .containsEntry("difficulty", "easy").containsEntry("harness4j.pass_reward", "0.5");
        assertThat(t.solution().orElseThrow().script()).contains("echo 42 > answer.txt");
        assertThat(t.image()).isEmpty();
    }

    @Test
    void everyProblemOfAHarborTaskIsListed() throws Exception {
        Path suite = tmp.resolve("broken");
        harbor(suite, "bad", """
                [agent]
                timeout_sec = -3
                [verifier]
                env = { API_KEY = "${API_KEY}" }
                [metadata.harness4j]
                environment = "cloud"
                colour = "blue"
                """, Map.of());
        harbor(suite, "not-toml", "[agent\n", Map.of());

        assertThatThrownBy(() -> TaskSuite.load(suite)).isInstanceOf(BenchPlanException.class)
                .hasMessageContaining("no instruction: a Harbor task needs a non-empty instruction.md")
                .hasMessageContaining("agent.timeout_sec must be a positive number of seconds, was -3")
                .hasMessageContaining("[verifier] env is not supported by harness4j yet")
                .hasMessageContaining("no tests/test.sh")
                .hasMessageContaining("environment must be \"host\"")
                .hasMessageContaining("unknown key \"colour\" in [metadata.harness4j]")
                .hasMessageContaining(suite.resolve("not-toml/task.toml") + ": not readable TOML");
    }

    @Test
    void aTaskThatNeedsAnImageIsRefusedAtPlanTimeUnlessItSaysTheHostWillDo() throws Exception {
        Path suite = tmp.resolve("images");
        Map<String, String> files = Map.of("instruction.md", "Write 42 to answer.txt", "tests/test.sh", ANSWER_TEST,
                "environment/Dockerfile", "FROM debian:bookworm-slim\nWORKDIR /app\n");
        harbor(suite, "boxed", "[agent]\ntimeout_sec = 60\n", files);
        harbor(suite, "named", "[environment]\ndocker_image = \"python:3.12-slim\"\n",
                Map.of("instruction.md", "x", "tests/test.sh", ANSWER_TEST));
        harbor(suite, "hosted", "[metadata.harness4j]\nenvironment = \"host\"\n", files);
        TaskSuite tasks = TaskSuite.load(suite);
        assertThat(tasks.task("boxed").orElseThrow().image()).hasValueSatisfying(i ->
                assertThat(i.build()).isEqualTo(suite.resolve("boxed/environment/Dockerfile")));
        assertThat(tasks.task("hosted").orElseThrow().image()).isEmpty();

        try (HarnessRunner runner = runner(tmp.resolve("state"))) {
            assertThatThrownBy(() -> BenchPlan.builder(runner).suite(tasks).harnesses("nop").build())
                    .isInstanceOf(BenchPlanException.class)
                    .hasMessageContaining("task boxed needs the image built from environment/Dockerfile; ")
                    .hasMessageContaining("task named needs the image python:3.12-slim; ")
                    .hasMessageContaining("[metadata.harness4j] environment = \"host\"")
                    .hasMessageNotContaining("task hosted");
            TaskSuite hosted = TaskSuite.of("h", java.util.List.of(tasks.task("hosted").orElseThrow()));
            assertThat(BenchPlan.builder(runner).suite(hosted).harnesses("nop").build().combos()).hasSize(1);
        }
    }

    @Test
    void nopAndOracleRunHarborTasksJudgedByTheRewardsTestShWritesToLogsVerifier() throws Exception {
        Path suite = tmp.resolve("harbor");
        harbor(suite, "answer", "[verifier]\ntimeout_sec = 60\n", Map.of("instruction.md", "Write 42 to answer.txt",
                "tests/test.sh", ANSWER_TEST, "solution/solve.sh", "#!/bin/bash\n[[ -n x ]] && echo 42 > answer.txt\n"));
        // the build context lands in the workspace (its own tests/ too, which the verifier's files do not replace)
        harbor(suite, "graded", "[metadata.harness4j]\nenvironment = \"host\"\n", Map.of(
                "instruction.md", "Copy seed.txt to out.txt and write 'ok' to status.txt",
                "environment/Dockerfile", "FROM scratch\n",
                "environment/seed.txt", "seed\n",
                "environment/tests/own_test.txt", "the repository's own tests\n",
                "tests/lib.sh", "metric() { if eval \"$2\"; then echo 1; else echo 0; fi; }\n",
                "tests/test.sh", """
                        #!/bin/bash
                        source /tests/lib.sh
                        copied=$(metric copied 'cmp -s seed.txt out.txt')
                        status=$(metric status 'grep -qx ok status.txt 2>/dev/null')
                        own=$(metric own 'test -f tests/own_test.txt')
                        echo "{\\"copied\\": $copied, \\"status\\": $status, \\"own_tests\\": $own}" > /logs/verifier/reward.json
                        """,
                "solution/solve.sh", "cp seed.txt out.txt\necho ok > status.txt\n"));
        harbor(suite, "silent", "", Map.of("instruction.md", "x", "tests/test.sh", "exit 0\n",
                "solution/solve.sh", "echo x > x.txt\n"));

        SuiteCheckReport report;
        Path state = tmp.resolve("state");
        try (HarnessRunner runner = runner(state)) {
            report = SuiteCheck.builder(runner).build().check(TaskSuite.load(suite));
        }

        assertThat(report.brokenTasks()).containsExactly("silent");
        assertThat(report.text()).containsPattern("answer +nop: failed +oracle: passed, passed +ok")
                .containsPattern("graded +nop: failed +oracle: passed, passed +ok");
        BenchSummary s = BenchSummary.read(state);
        ResultRow nopGraded = s.rows().stream().filter(r -> r.task().endsWith("/graded") && r.harness().equals("nop"))
                .findFirst().orElseThrow();
        assertThat(nopGraded.rewards()).containsExactly(Map.entry("copied", 0.0), Map.entry("status", 0.0),
                Map.entry("own_tests", 1.0));
        assertThat(nopGraded.reward()).isEqualTo(1.0 / 3);
        ResultRow silent = s.rows().stream().filter(r -> r.task().endsWith("/silent") && r.harness().equals("oracle"))
                .findFirst().orElseThrow();
        assertThat(silent.verifyStatus()).isEqualTo("verifier-error");
        JsonNode meta = new ObjectMapper().readTree(state.resolve("results").resolve(silent.dir()).resolve("meta.json").toFile());
        assertThat(meta.path("verify").path("reason").asText()).startsWith("tests/test.sh wrote no reward");
    }

    @Test
    void onlyWholeHarborPathsAreRewritten() {
        HarborPaths p = new HarborPaths(Path.of("/s/tests"), Path.of("/s/logs/verifier"));
        assertThat(p.rewrite("bash /tests/test.sh > \"/logs/verifier/reward.txt\"; ls /tests"))
                .isEqualTo("bash /s/tests/test.sh > \"/s/logs/verifier/reward.txt\"; ls /s/tests");
        assertThat(p.rewrite("cd /testsuite; cat a/tests/x /logs/verifiers /tests.d ./tests"))
                .isEqualTo("cd /testsuite; cat a/tests/x /logs/verifiers /tests.d ./tests");
    }

    private static HarnessRunner runner(Path state) {
        return HarnessRunner.builder().stateDir(state)
                .registry(HarnessRegistry.builder().add(new NopHarness()).add(new OracleHarness()).build()).build();
    }
}
