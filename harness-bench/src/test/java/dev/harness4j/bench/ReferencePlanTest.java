package dev.harness4j.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.harness4j.api.RunSpec;
import dev.harness4j.bench.reference.NopHarness;
import dev.harness4j.bench.reference.OracleHarness;
import dev.harness4j.bench.reference.ReferenceHarnesses;
import dev.harness4j.core.HarnessRegistry;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.Preflight;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Plans with the reference harnesses: no provider needed, one combo per task and trial, the oracle's script. */
class ReferencePlanTest {
    @TempDir Path state;
    @TempDir Path repo;
    private HarnessRunner runner;

    private final BenchTask solved = BenchTask.builder("solved").instruction("Write 42").verify(TaskVerify.of("true"))
            .solution(TaskSolution.of("echo 42 > answer.txt")).build();
    private final BenchTask unsolved = BenchTask.builder("unsolved").instruction("Write 43").verify(TaskVerify.of("true"))
            .build();

    @BeforeEach
    void setUp() throws Exception {
        Files.createDirectories(repo.resolve(".git"));
        runner = HarnessRunner.builder().stateDir(state)
                .registry(HarnessRegistry.builder().add(new NopHarness()).add(new OracleHarness())
                        .add(BenchTesting.harness("claude-code", "sh")).build())
                .providers(BenchTesting.resolver(Map.of("scripted", "scripted-a"))).build();
    }

    @AfterEach
    void tearDown() {
        runner.close();
    }

    @Test
    void aPlanOfReferenceHarnessesNeedsNoProviderAndCarriesTheSolution() {
        BenchPlan p = BenchPlan.builder(runner).harnesses("nop", "oracle").task(solved).task(unsolved).baseline(repo)
                .trials(2).build();

        assertThat(p.combos()).hasSize(2 * 2 * 2).allSatisfy(c -> {
            assertThat(c.provider()).isEqualTo(ReferenceHarnesses.PROVIDER);
            assertThat(c.resolvedModel()).isEqualTo(ReferenceHarnesses.MODEL);
        });
        RunSpec oracle = p.spec(p.combos().stream().filter(c -> c.harness().equals("oracle") && c.task() == solved)
                .findFirst().orElseThrow());
        assertThat(oracle.options()).containsEntry(ReferenceHarnesses.SCRIPT_OPTION, "echo 42 > answer.txt");
        assertThat(oracle.provider()).isEqualTo("none");
        RunSpec nop = p.spec(p.combos().stream().filter(c -> c.harness().equals("nop")).findFirst().orElseThrow());
        assertThat(nop.options()).doesNotContainKey(ReferenceHarnesses.SCRIPT_OPTION);
        assertThat(p.warnings()).singleElement().asString().contains("task unsolved has no reference solution");
        assertThat(Preflight.of(runner).check("oracle", "no-such-provider", null).problems())
                .as("a provider-less harness is not checked against a provider").isEmpty();
    }

    @Test
    void referencesBesideAnAgentRunOncePerTaskWhateverTheModels() {
        BenchPlan p = BenchPlan.builder(runner).harnesses("claude-code", "nop").provider("scripted")
                .models("scripted-a", "scripted-b").task(solved).baseline(repo).build();
        assertThat(p.combos()).extracting(Combo::harness, Combo::provider, Combo::resolvedModel).containsExactlyInAnyOrder(
                org.assertj.core.groups.Tuple.tuple("claude-code", "scripted", "scripted-a"),
                org.assertj.core.groups.Tuple.tuple("claude-code", "scripted", "scripted-b"),
                org.assertj.core.groups.Tuple.tuple("nop", "none", "none"));
    }

    @Test
    void anAgentStillNeedsAProvider() {
        assertThatThrownBy(() -> BenchPlan.builder(runner).harnesses("claude-code", "nop").task(solved).baseline(repo).build())
                .isInstanceOfSatisfying(BenchPlanException.class, e -> assertThat(e.problems())
                        .anyMatch(s -> s.contains("no provider") && s.contains("only [nop] need none")));
    }

    @Test
    void theReferenceHarnessesAreRegisteredForServiceLoading() {
        HarnessRegistry all = HarnessRegistry.fromServices();
        assertThat(all.ids()).contains("nop", "oracle");
        assertThat(all.require("oracle").needsProvider()).isFalse();
        assertThat(all.loadFailures()).noneMatch(f -> f.contains("bench.reference")); // core's test jar plants broken ones
    }
}
