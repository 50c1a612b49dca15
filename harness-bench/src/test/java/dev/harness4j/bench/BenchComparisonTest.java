package dev.harness4j.bench;

import static dev.harness4j.bench.MetricsTest.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BenchComparisonTest {
    private static List<ResultRow> bench(String id, String verifyT1, String verifyT2, int trials, long ms, String cost) {
        List<ResultRow> rows = new ArrayList<>();
        for (int i = 1; i <= trials; i++) {
            rows.add(row("claude-code", "m", id + "/t1", i, "completed", verifyT1, null, ms, 10L, new BigDecimal(cost)));
            rows.add(row("claude-code", "m", id + "/t2", i, "completed", i == 1 ? verifyT2 : "passed", null, ms, 10L,
                    new BigDecimal(cost)));
        }
        return rows;
    }

    @Test
    void findsNewlyFailingAndNewlyPassingCellsAndTheDeltas() {
        List<ResultRow> before = bench("monday", "passed", "failed", 10, 1000, "0.10");
        before.addAll(List.of(row("aider", "m", "monday/t1", 1, "completed", "failed", null, 1L, null, null)));
        List<ResultRow> after = bench("tuesday", "failed", "passed", 10, 1500, "0.12");
        after.addAll(List.of(row("aider", "m", "tuesday/t1", 1, "completed", "passed", null, 1L, null, null)));

        BenchComparison c = BenchComparison.of(before, after);

        assertThat(c.newlyFailing()).extracting(BenchComparison.Cell::task, BenchComparison.Cell::combo)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("t1", "claude-code / m"));
        assertThat(c.newlyPassing()).extracting(BenchComparison.Cell::task, BenchComparison.Cell::combo)
                .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("t1", "aider / m"));
        assertThat(c.cells()).filteredOn(x -> x.task().equals("t2") && x.combo().startsWith("claude"))
                .singleElement().satisfies(x -> {
                    assertThat(x.before()).isEqualTo(BenchComparison.Verdict.FLAKY);
                    assertThat(x.after()).isEqualTo(BenchComparison.Verdict.PASS);
                    assertThat(x.newlyPassing()).isFalse();
                });
        BenchComparison.ComboDelta claude = c.combos().stream().filter(d -> d.combo().equals("claude-code / m"))
                .findFirst().orElseThrow();
        assertThat(claude.passRateDelta()).isCloseTo(0.5 - 0.95, within(1e-9));
        assertThat(claude.significant()).isTrue();
        assertThat(claude.costDelta()).isEqualByComparingTo("0.40");
        assertThat(claude.medianDurationDeltaMs()).isEqualTo(500L);
        BenchComparison.ComboDelta aider = c.combos().stream().filter(d -> d.combo().equals("aider / m")).findFirst()
                .orElseThrow();
        assertThat(aider.significant()).as("1 trial each: the intervals overlap").isFalse();
        assertThat(aider.costDelta()).as("unmeasured on both sides").isNull();
        assertThat(SummaryFormat.compare(c)).contains("newly failing: 1", "newly passing: 1", "-45 pts *", "+$0.4000",
                "+0.5s");
    }

    @Test
    void forBenchKeepsOneBenchsRows() {
        List<ResultRow> rows = new ArrayList<>(bench("a", "passed", "passed", 1, 1, "0.1"));
        rows.addAll(bench("b", "failed", "failed", 2, 1, "0.1"));
        BenchSummary s = new BenchSummary(rows, List.of());
        assertThat(s.forBench("b").rows()).hasSize(4).allSatisfy(r -> assertThat(r.task()).startsWith("b/"));
    }
}
