package dev.harness4j.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.bench.SuiteCheck;
import dev.harness4j.bench.SuiteCheckReport;
import dev.harness4j.bench.TaskSuite;
import dev.harness4j.cli.Harness4j;
import dev.harness4j.core.HarnessRunner;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bundled sample suite's verifiers are sound: each rejects the untouched repository (nop) and
 * accepts the task's reference solution (oracle, twice), on real runs with the real verifiers.
 */
class SampleSuiteCheckTest {
    @TempDir Path tmp;

    @Test
    void theSampleSuitePassesTheCheck() throws Exception {
        TaskSuite suite = SampleSuite.extract(tmp);
        assertThat(suite.tasks()).allSatisfy(t -> assertThat(t.solution()).as(t.id() + " has a solution").isPresent());

        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Harness4j.run(new PrintWriter(out, true), new PrintWriter(err, true), "bench", "check",
                "--suite", tmp.resolve(SampleSuite.ID).toString(), "--state-dir", tmp.resolve("state").toString());

        assertThat(code).as(out + "\n" + err).isZero();
        assertThat(out.toString()).contains("suite check passed", "config · nop: failed", "multiply · oracle #2: passed");
        try (HarnessRunner runner = HarnessRunner.builder().stateDir(tmp.resolve("state-api")).build()) {
            SuiteCheckReport report = SuiteCheck.builder(runner).build().check(suite);
            assertThat(report.findings()).as(report.text()).isEmpty();
            assertThat(report.tasks()).hasSize(SampleSuite.TASKS.size());
        }
    }
}
