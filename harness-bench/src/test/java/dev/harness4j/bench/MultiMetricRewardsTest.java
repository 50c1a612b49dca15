package dev.harness4j.bench;

import static dev.harness4j.bench.TaskSuiteTest.task;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.core.HarnessRegistry;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.ShellHarness;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Verifiers that write several named metrics: real runs, real verifier processes; the metrics
 * reach meta.json, the summary's rows and formats, the metrics per combo, the comparison and the
 * report's run page.
 */
class MultiMetricRewardsTest {
    /** Grades notes.md: a title line, and at least three bullets; each criterion a metric. */
    private static final String GRADE = """
            title=0; bullets=0
            head -n 1 notes.md 2>/dev/null | grep -q '^# ' && title=1
            [ "$(grep -c '^- ' notes.md 2>/dev/null)" -ge 3 ] && bullets=1
            printf '{"title": %s, "bullets": %s}' "$title" "$bullets" > "$HARNESS4J_REWARDS_FILE"
            echo "title=$title bullets=$bullets"
            """;

    @TempDir Path tmp;

    private TaskSuite suite() throws Exception {
        Path suite = tmp.resolve("notes");
        Path mean = task(suite, "mean", """
                {"instruction": "Write notes.md: a title and three bullets", "setup": "echo seed > seed.txt",
                 "verify": {"command": "sh verify/grade.sh", "pass_reward": 1.0}}
                """);
        Files.createDirectories(mean.resolve("verify"));
        Files.writeString(mean.resolve("verify/grade.sh"), GRADE);
        Path primary = task(suite, "title-first", """
                {"instruction": "Write notes.md with a title", "setup": "echo seed > seed.txt",
                 "verify": {"command": "sh verify/grade.sh", "primary_metric": "title", "pass_reward": 1.0}}
                """);
        Files.createDirectories(primary.resolve("verify"));
        Files.writeString(primary.resolve("verify/grade.sh"), GRADE);
        return TaskSuite.load(suite);
    }

    private HarnessRunner runner() {
        return HarnessRunner.builder().stateDir(tmp.resolve("state"))
                .registry(HarnessRegistry.builder().add(new ShellHarness()).build()).providers(ShellHarness.provider()).build();
    }

    private static BenchPlan plan(Bench bench, TaskSuite suite, String id, String script) {
        return bench.plan().suite(suite).id(id).harnesses(ShellHarness.ID).provider("local").models("m")
                .option("script", script).build();
    }

    @Test
    void everyNamedMetricIsKeptAndTheRewardIsThePrimaryOneOrTheMean() throws Exception {
        TaskSuite suite = suite();
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(text, true, StandardCharsets.UTF_8);
        BenchRun run;
        try (HarnessRunner runner = runner()) {
            Bench.builder(runner).out(out, false).build().run(plan(Bench.builder(runner).build(), suite, "before",
                    "printf 'notes\\n' > notes.md"));
            Bench bench = Bench.builder(runner).out(out, false).baseline(BenchBaseline.of("before")).build();
            run = bench.run(plan(bench, suite, "after", "printf '# Notes\\n- one\\n' > notes.md"));
        }

        ResultRow mean = row(run, "after/mean");
        assertThat(mean.rewards()).containsExactly(Map.entry("title", 1.0), Map.entry("bullets", 0.0));
        assertThat(mean.reward()).as("no primary metric: the mean").isEqualTo(0.5);
        assertThat(mean.verifyStatus()).as("judged by its reward: 0.5 < 1.0").isEqualTo("failed");
        ResultRow primary = row(run, "after/title-first");
        assertThat(primary.reward()).as("the primary metric").isEqualTo(1.0);
        assertThat(primary.verifyStatus()).isEqualTo("passed");

        JsonNode verify = new ObjectMapper().readTree(tmp.resolve("state/results").resolve(mean.dir()).resolve("meta.json")
                .toFile()).path("verify");
        assertThat(verify.path("rewards").path("title").asDouble()).isEqualTo(1.0);
        assertThat(verify.path("reason").asText()).isEqualTo("reward 0.50 is below the 1.00 a pass needs");

        Metrics combo = run.metrics().combo(ShellHarness.ID, "m").orElseThrow().metrics();
        assertThat(combo.rewards()).containsEntry("title", new Metrics.MetricMean(1.0, 2))
                .containsEntry("bullets", new Metrics.MetricMean(0.0, 2));
        assertThat(SummaryFormat.leaderboard(run.metrics())).contains("rewards per metric", "bullets 0.00, title 1.00");
        assertThat(SummaryFormat.compare(run.comparison())).contains("rewards per metric (mean before -> after):",
                ShellHarness.ID + " / m  title  0.00 -> 1.00  +1.00");
        BenchSummary after = run.summary().forBench("after");
        assertThat(SummaryFormat.csv(after)).startsWith("dir,").contains(",verify_status,reward,reward:bullets,reward:title\n")
                .contains(",failed,0.5,0.0,1.0\n");
        JsonNode json = new ObjectMapper().readTree(SummaryFormat.json(after));
        assertThat(json.path("results").findValues("rewards")).anySatisfy(r -> assertThat(r.path("bullets").isNumber()).isTrue());
        assertThat(SummaryFormat.table(after)).contains("failed (0.50: title 1.00, bullets 0.00)");

        Path report = tmp.resolve("state/reports/after");
        assertThat(Files.readString(report.resolve("index.html"))).contains("rewards per metric");
        try (var pages = Files.list(report.resolve("runs"))) {
            assertThat(pages.map(p -> read(p)).filter(p -> p.contains("id=\"rewards\""))).hasSize(2)
                    .anySatisfy(p -> assertThat(p).contains("<td>bullets</td>"));
        }
    }

    @Test
    void aBadRewardsFileIsAVerifierErrorThatSaysWhatWasWrong() throws Exception {
        Path suite = tmp.resolve("bad");
        task(suite, "words", """
                {"instruction": "x", "setup": "echo seed > seed.txt",
                 "verify": {"command": "printf '{\\"tests\\": \\"all\\"}' > \\"$HARNESS4J_REWARDS_FILE\\""}}
                """);
        task(suite, "no-such-primary", """
                {"instruction": "x", "setup": "echo seed > seed.txt",
                 "verify": {"command": "printf '{\\"tests\\": 1}' > \\"$HARNESS4J_REWARDS_FILE\\"", "primary_metric": "lint"}}
                """);
        BenchRun run;
        try (HarnessRunner runner = runner()) {
            Bench bench = Bench.builder(runner).out(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                    false).build();
            run = bench.run(plan(bench, TaskSuite.load(suite), "bad", "echo done > done.txt"));
        }
        assertThat(row(run, "bad/words").verifyStatus()).isEqualTo("verifier-error");
        assertThat(reason(row(run, "bad/words"))).contains("the metric \"tests\" must be a number in [0, 1], was \"all\"");
        assertThat(reason(row(run, "bad/no-such-primary"))).contains("the task's primary metric \"lint\" is not in the"
                + " rewards file (it has tests)");
    }

    private String reason(ResultRow r) throws Exception {
        return new ObjectMapper().readTree(tmp.resolve("state/results").resolve(r.dir()).resolve("meta.json").toFile())
                .path("verify").path("reason").asText();
    }

    private static ResultRow row(BenchRun run, String task) {
        return run.summary().rows().stream().filter(r -> task.equals(r.task())).findFirst().orElseThrow();
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
