package dev.harness4j.bench;

import static dev.harness4j.bench.TaskSuiteTest.task;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.core.HarnessRegistry;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.ResultQuery;
import dev.harness4j.core.ShellHarness;
import dev.harness4j.core.StoredResult;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A suite run end to end on the shell harness: the verifier runs after the agent in its
 * workspace, trials are separate results, a second run resumes and --force runs again.
 */
class VerifiedBenchTest {
    /** The "agent": answers 42 (model good) or 41 (model bad), and tries to plant a passing verifier. */
    static final String AGENT = """
            if test -e verify; then echo saw-the-verifier > saw.txt; fi
            case "$PROMPT" in *CRASH*) exit 3;; esac
            if grep -q '"bad"' "$SCRATCH/config.json"; then echo 41 > answer.txt; else echo 42 > answer.txt; fi
            mkdir -p verify && printf 'exit 0\\n' > verify/check.sh
            """;

    @TempDir Path tmp;

    private Path suite() throws Exception {
        Path suite = tmp.resolve("mini");
        Path answer = task(suite, "answer", """
                {"instruction": "Write 42 to answer.txt", "setup": "echo seed > seed.txt",
                 "verify": {"command": "sh verify/check.sh", "timeout_seconds": 60}}
                """);
        Files.createDirectories(answer.resolve("verify"));
        Files.writeString(answer.resolve("verify/check.sh"), """
                test ! -e saw.txt || { echo "the agent saw the verifier"; exit 1; }
                if test "$(cat answer.txt)" = 42; then echo 1 > "$HARNESS4J_REWARD_FILE"; echo ok; exit 0; fi
                echo 0.25 > "$HARNESS4J_REWARD_FILE"; echo "wrong answer: $(cat answer.txt)"; exit 1
                """);
        task(suite, "slow", """
                {"instruction": "Anything", "setup": "echo seed > seed.txt",
                 "verify": {"command": "sleep 300 & wait", "timeout_seconds": 1}}
                """);
        task(suite, "crash", """
                {"instruction": "CRASH now", "setup": "echo seed > seed.txt", "verify": {"command": "true"}}
                """);
        return suite;
    }

    private static JsonNode verify(StoredResult r) throws Exception {
        return new ObjectMapper().readTree(r.metaFile().toFile()).path("verify");
    }

    @Test
    void verifiesEachTrialAfterTheAgentAndResumesWhatIsFinished() throws Exception {
        TaskSuite suite = TaskSuite.load(suite());
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        try (HarnessRunner runner = HarnessRunner.builder().stateDir(tmp.resolve("state"))
                .registry(HarnessRegistry.builder().add(new ShellHarness()).build()).providers(ShellHarness.provider())
                .build()) {
            Bench bench = Bench.builder(runner).concurrency(2).out(new PrintStream(text, true, StandardCharsets.UTF_8), false)
                    .build();
            BenchPlan plan = bench.plan().suite(suite).harnesses(ShellHarness.ID).provider("local").models("good", "bad")
                    .trials(2).option("script", AGENT).build();
            assertThat(plan.combos()).hasSize(3 * 2 * 2);

            BenchRun first = bench.run(plan);

            assertThat(first.queued()).hasSize(12);
            List<StoredResult> answers = runner.results().find(ResultQuery.all().task("mini/answer").model("good"));
            assertThat(answers).extracting(StoredResult::trial).containsExactlyInAnyOrder(1, 2);
            for (StoredResult r : answers) {
                assertThat(verify(r).path("status").asText()).isEqualTo("passed");
                assertThat(verify(r).path("reward").asDouble()).isEqualTo(1.0);
                assertThat(Files.readString(r.dir().resolve("verify.log"))).contains("ok");
                String diff = Files.readString(r.dir().resolve("diff.patch"));
                assertThat(diff).contains("answer.txt").doesNotContain("saw.txt");
            }
            for (StoredResult r : runner.results().find(ResultQuery.all().task("mini/answer").model("bad"))) {
                assertThat(verify(r).path("status").asText()).as("the planted verifier was replaced").isEqualTo("failed");
                assertThat(verify(r).path("reward").asDouble()).isEqualTo(0.25);
                assertThat(Files.readString(r.dir().resolve("verify.log"))).contains("wrong answer: 41");
            }
            for (StoredResult r : runner.results().find(ResultQuery.all().task("mini/slow"))) {
                assertThat(verify(r).path("status").asText()).isEqualTo("verifier-timeout");
            }
            for (StoredResult r : runner.results().find(ResultQuery.all().task("mini/crash"))) {
                assertThat(r.outcome()).isEqualTo("error");
                assertThat(verify(r).path("status").asText()).isEqualTo("not-verified");
                assertThat(r.dir().resolve("verify.log")).doesNotExist();
            }
            assertThat(first.metrics().passRate(ShellHarness.ID, "good")).isCloseTo(2.0 / 6, org.assertj.core.api.Assertions.within(1e-9));
            assertThat(first.metrics().passRate(ShellHarness.ID, "bad")).isEqualTo(0.0);
            assertThat(text.toString(StandardCharsets.UTF_8)).contains("leaderboard of bench mini", "pass@2",
                    "bench report: " + tmp.resolve("state/reports/mini/index.html"));
            assertThat(tmp.resolve("state/reports/mini/runs")).isDirectoryContaining(p -> p.toString().endsWith("11.html"));

            BenchRun again = bench.run(bench.plan().suite(suite).harnesses(ShellHarness.ID).provider("local")
                    .models("good", "bad").trials(2).option("script", AGENT).build());
            assertThat(again.queued()).as("finished trials are skipped").isEmpty();
            assertThat(runner.results().all()).hasSize(12);

            BenchRun third = bench.run(bench.plan().suite(suite).harnesses(ShellHarness.ID).provider("local")
                    .models("good").trials(3).option("script", AGENT).build());
            assertThat(third.queued()).as("only the new third trials").hasSize(3)
                    .allSatisfy(e -> assertThat(e.spec().trial()).isEqualTo(3));

            BenchRun forced = bench.run(bench.plan().suite(suite).harnesses(ShellHarness.ID).provider("local")
                    .models("bad").trials(1).force(true).option("script", AGENT).build());
            assertThat(forced.queued()).hasSize(3);
            assertThat(runner.results().all()).hasSize(18);
        }
    }
}
