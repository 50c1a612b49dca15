package dev.harness4j.examples;

import dev.harness4j.testkit.RealCli;
import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.RunSpec;
import dev.harness4j.claude.ClaudeCodeHarness;
import dev.harness4j.core.RunRecord;
import dev.harness4j.bench.Bench;
import dev.harness4j.bench.BenchPlan;
import dev.harness4j.bench.BenchRun;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.ResultQuery;
import dev.harness4j.core.StoredResult;
import dev.harness4j.testkit.Clis;
import dev.harness4j.testkit.bench.BenchContext;
import dev.harness4j.testkit.bench.BenchExtension;
import dev.harness4j.testkit.bench.RunRecordAssert;
import dev.harness4j.testkit.bench.ScriptedProvider;
import dev.harness4j.testkit.model.Scenario;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** How a user runs harnesses and benches from JUnit: the testkit's extension, real Claude Code, scripted models. */
@ExtendWith(BenchExtension.class)
@RealCli
class BenchJUnitExampleTest {

    @BeforeEach
    void needsClaudeCode() {
        Clis.require(new ClaudeCodeHarness());
    }

    @Test
    void oneRunWritesTheScriptedFile(BenchContext bench) {
        bench.script("scripted-a", Scenario.builder()
                .writeFile("hello.txt", "hello from the script\n").usage(100, 20, 0, 0)
                .say("Created hello.txt.").build());

        RunRecord record = bench.runner().run(RunSpec.builder("claude-code", ScriptedProvider.NAME)
                .model("scripted-a").prompt("Create hello.txt").baseline(bench.sampleRepo()).build());

        RunRecordAssert.assertThat(record).isCompleted().changedExactly("hello.txt")
                .diffContains("+hello from the script").hasMeasuredTokens().servedTheRequestedModel().hasResultFiles();
    }

    @Test
    void aBenchOfTwoModelsEndsWithTwoCompletedResultsAndAReport(BenchContext bench) throws Exception {
        for (String model : new String[] {"scripted-a", "scripted-b"}) {
            bench.script(model, BenchMain.scenario(model));
        }
        HarnessRunner runner = bench.runner();  // the state dir, adapters and providers of the bench
        Path repo = bench.sampleRepo();

        Bench b = Bench.builder(runner).concurrency(2).out(System.out, false).build();
        BenchPlan plan = b.plan().harnesses("claude-code").provider(ScriptedProvider.NAME)
                .models("scripted-a", "scripted-b").task("hello", BenchMain.DEFAULT_PROMPT)
                .baseline(repo).build();          // validated: nothing is queued on an error
        BenchRun outcome = b.run(plan);          // prints the matrix, progress, summary; writes the report
        List<StoredResult> runs = runner.results().find(ResultQuery.all().task("hello"));  // one dir per run

        RunRecordAssert.assertAllSucceeded(bench.summary(), 2);
        assertThat(outcome.processed().done()).isEqualTo(2);
        assertThat(Files.readString(outcome.report())).contains("claude-code / scripted-a", "claude-code / scripted-b");
        assertThat(runs).hasSize(2);
        assertThat(runner.results().find(ResultQuery.all().task("hello").model("scripted-b")))
                .singleElement().satisfies(r -> assertThat(r.dir().resolve("diff.patch")).content()
                        .contains("+Hello from scripted-b!"));
    }
}
