package dev.harness4j.examples;

import dev.harness4j.testkit.RealCli;
import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.aider.AiderHarness;
import dev.harness4j.claude.ClaudeCodeHarness;
import dev.harness4j.bench.BenchSummary;
import dev.harness4j.bench.ResultRow;
import dev.harness4j.opencode.OpencodeHarness;
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

    @Test
    void theDefaultMatrixEndsWithSixCompletedResultsEachHoldingTheScriptedChangeAndAReport() throws Exception {
        Clis.require(new ClaudeCodeHarness());
        Clis.require(new OpencodeHarness());
        Clis.require(new AiderHarness());
        ByteArrayOutputStream buf = new ByteArrayOutputStream();

        int status = BenchMain.run(new String[] {"--state-dir", state.toString()},
                new PrintStream(buf, true, StandardCharsets.UTF_8), false);

        String out = buf.toString(StandardCharsets.UTF_8);
        assertThat(status).as(out).isZero();
        BenchSummary summary = BenchSummary.read(state);
        assertThat(summary.rows()).as(out).hasSize(6).allSatisfy(r -> assertThat(r.outcome()).as(r.dir()).isEqualTo("completed"));
        for (ResultRow r : summary.rows()) {
            assertThat(state.resolve("results").resolve(r.dir()).resolve("diff.patch")).as(r.dir())
                    .content().contains("+Hello from " + r.model() + "!");
        }
        assertThat(out).contains("bench plan: 6 combos, 6 to run", "6 results (completed 6)", "report: " + state.resolve("report.html"));
        assertThat(state.resolve("report.html")).exists();
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
}
