package dev.harness4j.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.bench.BenchRun;
import dev.harness4j.bench.TaskSuite;
import dev.harness4j.claude.ClaudeCodeHarness;
import dev.harness4j.testkit.Clis;
import dev.harness4j.testkit.RealCli;
import dev.harness4j.testkit.bench.BenchContext;
import dev.harness4j.testkit.bench.BenchExtension;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** A task suite from a JUnit test: every task verified, the pass rates asserted. */
@ExtendWith(BenchExtension.class)
@RealCli
class BenchSuiteJUnitExampleTest {
    @TempDir Path suites;

    @Test
    void scriptedASolvesThreeOfTheFourSampleTasksAndScriptedBTwo(BenchContext bench) throws Exception {
        Clis.require(new ClaudeCodeHarness());
        TaskSuite suite = SampleSuite.extract(suites);

        BenchRun run = bench.runSuite(suite, List.of("scripted-a", "scripted-b"), SampleSuite::scenario,
                plan -> plan.harnesses("claude-code"));

        assertThat(run.summary().rows()).hasSize(8);
        assertThat(bench.passRate("claude-code", "scripted-a")).isEqualTo(0.75);
        assertThat(bench.passRate("claude-code", "scripted-b")).isEqualTo(0.5);
        assertThat(bench.metrics().cells().get("sample-suite/config").get("claude-code / scripted-a").passed()).isZero();
    }
}
