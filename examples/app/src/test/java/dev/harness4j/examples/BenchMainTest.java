package dev.harness4j.examples;

import dev.harness4j.testkit.RealCli;
import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.aider.AiderHarness;
import dev.harness4j.claude.ClaudeCodeHarness;
import dev.harness4j.bench.BenchMetrics;
import dev.harness4j.bench.BenchSummary;
import dev.harness4j.bench.ResultRow;
import dev.harness4j.opencode.OpencodeHarness;
import dev.harness4j.codex.CodexHarness;
import dev.harness4j.gemini.GeminiHarness;
import dev.harness4j.miniswe.MiniSweAgentHarness;
import dev.harness4j.qwen.QwenHarness;
import java.util.List;
import dev.harness4j.testkit.Clis;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's main job: the embedded default matrix, and a plan that is refused whole. */
@RealCli
class BenchMainTest {
    @TempDir Path state;

    /**
     * The main job's sample suite with one trial (the default's two trials are what {@code
     * scripts/bench.sh} runs): every run completes, each verifier really runs and gives each
     * scripted model's known verdicts, and the leaderboard and report come out.
     */
    @Test
    void theSampleSuiteIsVerifiedPerTaskAndRankedOnTheLeaderboard() throws Exception {
        Clis.require(new ClaudeCodeHarness());
        Clis.require(new OpencodeHarness());
        Clis.require(new AiderHarness());
        ByteArrayOutputStream buf = new ByteArrayOutputStream();

        int status = BenchMain.run(new String[] {"--state-dir", state.toString(), "--trials", "1"},
                new PrintStream(buf, true, StandardCharsets.UTF_8), false);

        String out = buf.toString(StandardCharsets.UTF_8);
        assertThat(status).as(out).isZero();
        BenchSummary summary = BenchSummary.read(state);
        assertThat(summary.rows()).as(out).hasSize(4 * 3 * 2)
                .allSatisfy(r -> assertThat(r.outcome()).as(r.dir()).isEqualTo("completed"));
        for (ResultRow r : summary.rows()) {
            String task = r.task().substring(r.task().indexOf('/') + 1);
            boolean a = r.model().equals("scripted-a");
            boolean expected = switch (task) {
                case "greeting", "multiply" -> a;
                case "config" -> !a;
                default -> true; // mean: both solve it
            };
            assertThat(r.verifyStatus()).as(r.dir() + "\n" + out).isEqualTo(expected ? "passed" : "failed");
            assertThat(state.resolve("results").resolve(r.dir()).resolve("verify.log")).as(r.dir())
                    .content().contains(expected ? "PASS" : "FAIL");
            assertThat(state.resolve("results").resolve(r.dir()).resolve("meta.json")).as("the main job runs sandboxed")
                    .content().containsPattern("\"sandbox\" : \\{\\s*\"setting\" : \"auto\",\\s*\"mode\" : \"bubblewrap\",\\s*"
                            + "\"network\" : \"meter-only\"");
            assertThat(state.resolve("results").resolve(r.dir()).resolve("meta.json")).as("the agent's own phase report")
                    .content().contains("\"self_report\"");
            assertThat(state.resolve("results").resolve(r.dir()).resolve("diff.patch")).as("the report is kept out of the diff")
                    .content().doesNotContain(".harness4j");
        }
        BenchMetrics metrics = BenchMetrics.of(summary);
        for (String h : BenchMain.DEFAULT_HARNESSES) {
            assertThat(metrics.passRate(h, "scripted-a")).as(h).isEqualTo(0.75);
            assertThat(metrics.passRate(h, "scripted-b")).as(h).isEqualTo(0.5);
        }
        assertThat(out).contains("bench plan sample-suite: 24 runs, 24 to run", "leaderboard of bench sample-suite",
                "95% CI", "report: " + state.resolve("report.html"));
        assertThat(state.resolve("report.html")).exists();
    }

    /**
     * The main job takes every other bundled harness too ({@code --harness codex,...}): one model,
     * one trial, each run writes its file through the CLI's own tools and is verified, with the
     * tokens metered and the agent's own phase report.
     */
    @Test
    void theOtherBundledHarnessesRunTheSampleSuiteToo() throws Exception {
        Clis.require(new CodexHarness());
        Clis.require(new MiniSweAgentHarness());
        Clis.require(new GeminiHarness());
        Clis.require(new QwenHarness());
        List<String> harnesses = List.of("codex", "mini-swe-agent", "gemini", "qwen-code");
        ByteArrayOutputStream buf = new ByteArrayOutputStream();

        int status = BenchMain.run(new String[] {"--state-dir", state.toString(), "--trials", "1", "--model", "scripted-a",
                "--harness", String.join(",", harnesses)}, new PrintStream(buf, true, StandardCharsets.UTF_8), false);

        String out = buf.toString(StandardCharsets.UTF_8);
        assertThat(status).as(out).isZero();
        BenchSummary summary = BenchSummary.read(state);
        assertThat(summary.rows()).as(out).hasSize(4 * harnesses.size())
                .allSatisfy(r -> assertThat(r.outcome()).as(r.dir()).isEqualTo("completed"))
                .allSatisfy(r -> assertThat(r.verifyStatus()).as(r.dir())
                        .isEqualTo(r.task().endsWith("/config") ? "failed" : "passed"));
        for (ResultRow r : summary.rows()) {
            Path meta = state.resolve("results").resolve(r.dir()).resolve("meta.json");
            assertThat(meta).as(r.dir()).content().contains("\"self_report\"").containsPattern(
                    "\"tokens\" : \\{[^}]*\"source\" : \"metered\"");
        }
        BenchMetrics metrics = BenchMetrics.of(summary);
        for (String h : harnesses) {
            assertThat(metrics.passRate(h, "scripted-a")).as(h).isEqualTo(0.75);
        }
    }

    @Test
    void anUnknownHarnessInThePlanQueuesNothingAndSaysWhatToFix() throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();

        int status = BenchMain.run(new String[] {"--state-dir", state.toString(), "--harness", "claude-code,opencod,aider"},
                new PrintStream(buf, true, StandardCharsets.UTF_8), false);

        assertThat(status).isEqualTo(2);
        assertThat(buf.toString(StandardCharsets.UTF_8)).contains("unknown harness 'opencod'", "nothing was queued");
        assertThat(state.resolve("queue")).satisfiesAnyOf(q -> assertThat(q).doesNotExist(), q -> assertThat(Files.list(q)).isEmpty());
    }

    /** {@code scripts/bench.sh --serve}: the live view's URL comes first, and the bench runs as without it. */
    @Test
    void serveFirstPrintsTheLiveViewsUrlThenTheBenchRuns() throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();

        int status = BenchMain.run(new String[] {"--serve", "--state-dir", state.toString(), "--harness", "nop",
                "--trials", "1"}, new PrintStream(buf, true, StandardCharsets.UTF_8), false);

        String out = buf.toString(StandardCharsets.UTF_8);
        assertThat(status).as(out).isZero();
        assertThat(out.lines().findFirst()).hasValueSatisfying(l -> assertThat(l)
                .matches("watch it live: http://127\\.0\\.0\\.1:\\d+/\\?t=[0-9a-f]{48}"));
        assertThat(BenchSummary.read(state).rows()).hasSize(4).allMatch(r -> r.outcome().equals("completed"));
    }
}
