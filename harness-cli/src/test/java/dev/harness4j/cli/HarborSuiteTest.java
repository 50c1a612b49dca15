package dev.harness4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.RunSpec;
import dev.harness4j.bench.BenchMetrics;
import dev.harness4j.bench.BenchSummary;
import dev.harness4j.bench.Metrics;
import dev.harness4j.bench.ResultRow;
import dev.harness4j.claude.ClaudeCodeHarness;
import dev.harness4j.core.PhaseReports;
import dev.harness4j.core.queue.QueueProcessor;
import dev.harness4j.testkit.Clis;
import dev.harness4j.testkit.RealCli;
import dev.harness4j.testkit.bench.ScriptedProvider;
import dev.harness4j.testkit.model.Scenario;
import dev.harness4j.testkit.model.ScriptedModelServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A suite in Harbor's format ({@code src/test/resources/harbor-suite}: three tasks written for
 * these tests, one grading three named metrics in {@code reward.json}) through {@code harness4j
 * bench check} (nop and oracle, whose {@code solution/solve.sh} runs) and {@code harness4j bench
 * run} with Claude Code on the scripted models, each task's {@code tests/test.sh} really run.
 */
class HarborSuiteTest {
    @TempDir Path tmp;
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private static Path suite() throws Exception {
        return Path.of(HarborSuiteTest.class.getResource("/harbor-suite").toURI());
    }

    @Test
    void theCheckPassesTheSuiteAndTheReportShowsTheReferencesAndTheirRewards() throws Exception {
        String state = tmp.resolve("state").toString();

        int code = Harness4j.run(new PrintWriter(out, true), new PrintWriter(err, true),
                "bench", "check", "--suite", suite().toString(), "--state-dir", state);

        assertThat(code).as(out + "\n" + err).isEqualTo(Harness4j.OK);
        Path index = Path.of(state, "reports/harbor-suite-check/index.html");
        assertThat(out.toString()).containsPattern("release-notes +nop: failed +oracle: passed, passed +ok")
                .contains("suite check passed", "report: " + index);
        BenchSummary s = BenchSummary.read(Path.of(state)).forBench("harbor-suite-check");
        assertThat(s.rows()).hasSize(3 * 3);
        assertThat(BenchMetrics.of(s).references()).anySatisfy(r -> {
            assertThat(r.harness()).isEqualTo("oracle");
            assertThat(r.metrics().rewards()).containsEntry("bullets", new Metrics.MetricMean(1.0, 2));
        });

        assertThat(index).content().contains("<h2>Suite check</h2>", "<li class=\"passed\">no findings</li>",
                "suite check passed", "id=\"references\"", "bullets 1.00 (2/6 measured), title 1.00 (2/6 measured)");
    }

    @Test
    @RealCli
    void aBenchRunGivesEachScriptedModelTheVerdictsAndRewardsItsAnswersEarn() throws Exception {
        Clis.require(new ClaudeCodeHarness());
        String state = tmp.resolve("state").toString();
        int code;
        try (ScriptedModelServer server = ScriptedModelServer.start().requireKey(ScriptedProvider.KEY)) {
            for (String model : new String[] {"scripted-a", "scripted-b"}) { // the plan checks the models are served
                server.script(model, scenario(model, "hello-harbor"));
            }
            Embedding embedding = new Embedding(new ScriptedProvider(server), exec -> scripting(exec, server), Map.of());
            code = Harness4j.run(new PrintWriter(out, true), new PrintWriter(err, true), embedding,
                    "bench", "run", "--suite", suite().toString(), "--harness", "claude-code", "--provider",
                    ScriptedProvider.NAME, "--model", "scripted-a,scripted-b", "--concurrency", "1", "--state-dir", state);
        }

        assertThat(code).as(out + "\n" + err).isEqualTo(Harness4j.OK);
        BenchSummary s = BenchSummary.read(Path.of(state));
        assertThat(s.rows()).as(out.toString()).hasSize(3 * 2).allSatisfy(r -> assertThat(r.outcome()).isEqualTo("completed"));
        assertThat(row(s, "hello-harbor", "scripted-a").reward()).isEqualTo(1.0);
        assertThat(row(s, "hello-harbor", "scripted-b").verifyStatus()).isEqualTo("failed");
        assertThat(row(s, "port-config", "scripted-a").verifyStatus()).isEqualTo("failed");
        assertThat(row(s, "port-config", "scripted-b").verifyStatus()).isEqualTo("passed");
        ResultRow notesA = row(s, "release-notes", "scripted-a");
        assertThat(notesA.verifyStatus()).isEqualTo("passed");
        assertThat(notesA.rewards()).containsExactly(Map.entry("title", 1.0), Map.entry("bullets", 1.0), Map.entry("version", 1.0));
        ResultRow notesB = row(s, "release-notes", "scripted-b");
        assertThat(notesB.verifyStatus()).as("one change left out: the mean is 2/3, a pass needs 1").isEqualTo("failed");
        assertThat(notesB.rewards()).containsEntry("bullets", 0.0).containsEntry("title", 1.0);
        assertThat(notesB.reward()).isCloseTo(2.0 / 3, org.assertj.core.data.Offset.offset(1e-9));
        Path log = Path.of(state, "results").resolve(notesB.dir()).resolve("verify.log");
        assertThat(log).content().contains("title=1 bullets=0 version=1");

        BenchMetrics m = BenchMetrics.of(s);
        assertThat(m.passRate("claude-code", "scripted-a")).isEqualTo(2.0 / 3);
        assertThat(m.passRate("claude-code", "scripted-b")).isEqualTo(1.0 / 3);
        assertThat(out.toString()).contains("rewards per metric", "bullets 0.00 (1/3 measured), title 1.00 (1/3 measured)");
        Path runs = Path.of(state, "reports/harbor-suite/runs");
        try (Stream<Path> pages = Files.list(runs)) {
            assertThat(pages.map(HarborSuiteTest::read).filter(p -> p.contains("id=\"rewards\""))).hasSize(2);
        }

        out.getBuffer().setLength(0);
        assertThat(Harness4j.run(new PrintWriter(out, true), new PrintWriter(err, true), "bench", "summary", "--state-dir",
                state, "--bench", "harbor-suite", "--format", "json")).isZero();
        JsonNode json = new ObjectMapper().readTree(out.toString());
        assertThat(json.path("results").findValues("rewards")).anySatisfy(r -> assertThat(r.path("version").asDouble())
                .isEqualTo(1.0));
    }

    /** What each model answers: scripted-a solves hello and the notes, scripted-b the config. */
    static Scenario scenario(String model, String task) {
        boolean a = model.endsWith("-a");
        String[] file = switch (task) {
            case "hello-harbor" -> new String[] {"hello.txt", a ? "Hello, Harbor!\n" : "Hello Harbor!\n"};
            case "release-notes" -> new String[] {"NOTES.md", "# Release 2.0\n- faster start-up\n- a dark theme\n"
                    + (a ? "- export to CSV\n" : "")};
            case "port-config" -> new String[] {"config.json", a ? "{\"port\": 8080, \"debug\": \"false\"}\n"
                    : "{\"port\": 8080, \"debug\": false}\n"};
            default -> throw new IllegalArgumentException("no answer scripted for " + task);
        };
        String report = "{\"completed\": true, \"committed\": false, \"commit_message\": null, \"summary\": \"Wrote "
                + file[0] + ".\", \"next_phase_notes\": null, \"blockers\": []}";
        return Scenario.builder().writeFile(file[0], file[1]).usage(1200, 80, 0, 0)
                .writeFile(PhaseReports.REPORT_FILE, report).usage(1250, 40, 0, 0)
                .say("Wrote " + file[0] + ".").usage(1300, 25, 0, 0).build();
    }

    /** Scripts the server for each run before it starts (the bench runs one at a time). */
    private static QueueProcessor.Executor scripting(QueueProcessor.Executor inner, ScriptedModelServer server) {
        return new QueueProcessor.Executor() {
            @Override
            public HarnessResult run(String runId, RunSpec spec) throws Exception {
                server.script(spec.model(), scenario(spec.model(), spec.task().substring(spec.task().lastIndexOf('/') + 1)));
                return inner.run(runId, spec);
            }

            @Override
            public boolean bail(String runId) {
                return inner.bail(runId);
            }
        };
    }

    private static ResultRow row(BenchSummary s, String task, String model) {
        return s.rows().stream().filter(r -> r.task().endsWith("/" + task) && model.equals(r.model())).findFirst()
                .orElseThrow(() -> new AssertionError("no run of " + task + " on " + model + " in " + s.rows()));
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
