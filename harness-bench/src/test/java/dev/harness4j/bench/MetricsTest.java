package dev.harness4j.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

class MetricsTest {
    static ResultRow row(String harness, String model, String task, int trial, String outcome, String verify,
            Double reward, Long ms, Long in, BigDecimal cost) {
        return new ResultRow(task + "/" + harness + "/" + trial, harness, "p", model, task, outcome, null, ms, null, null,
                null, in, in == null ? null : 10L, in == null ? null : "meter", cost, cost == null ? null : "meter",
                null, null, trial, verify, reward);
    }

    @Test
    void wilsonIntervalMatchesTheTextbookValues() {
        double[] w = Metrics.wilson(5, 10);
        assertThat(w[0]).isCloseTo(0.2366, within(1e-4));
        assertThat(w[1]).isCloseTo(0.7634, within(1e-4));
        double[] none = Metrics.wilson(0, 4);
        assertThat(none[0]).isEqualTo(0.0);
        assertThat(none[1]).isCloseTo(0.4899, within(1e-4));
    }

    @Test
    void passAtKIsTheUnbiasedEstimator() {
        assertThat(Metrics.passAtK(2, 1, 1)).isCloseTo(0.5, within(1e-12));
        assertThat(Metrics.passAtK(2, 1, 2)).isCloseTo(1.0, within(1e-12));
        assertThat(Metrics.passAtK(5, 0, 3)).isEqualTo(0.0);
        // 1 - C(3,2)/C(5,2) = 1 - 3/10
        assertThat(Metrics.passAtK(5, 2, 2)).isCloseTo(0.7, within(1e-12));
    }

    @Test
    void aggregatesKeepUnmeasuredFiguresApartAndRankTheLeaderboard() {
        List<ResultRow> rows = List.of(
                row("h1", "a", "t1", 1, "completed", "passed", 1.0, 1000L, 100L, new BigDecimal("0.10")),
                row("h1", "a", "t1", 2, "completed", "failed", 0.5, 3000L, null, null),
                row("h1", "a", "t2", 1, "completed", "passed", null, 2000L, 100L, new BigDecimal("0.20")),
                row("h1", "a", "t2", 2, "error", "not-verified", null, 500L, 100L, new BigDecimal("0.30")),
                row("h2", "b", "t1", 1, "completed", "passed", null, 1000L, 50L, new BigDecimal("0.01")),
                row("h2", "b", "t1", 2, "completed", "passed", null, 1000L, 50L, new BigDecimal("0.01")),
                row("h2", "b", "t2", 1, "completed", "verifier-timeout", null, 9000L, 50L, new BigDecimal("0.01")),
                row("h2", "b", "t2", 2, "completed", "passed", null, 1000L, 50L, new BigDecimal("0.01")));

        BenchMetrics m = BenchMetrics.of(rows);

        assertThat(m.leaderboard()).extracting(BenchMetrics.ComboMetrics::harness).containsExactly("h2", "h1");
        Metrics h1 = m.combo("h1", "a").orElseThrow().metrics();
        assertThat(h1.passed()).isEqualTo(2);
        assertThat(h1.passRate()).isEqualTo(0.5);
        assertThat(h1.passAtK()).containsOnlyKeys(1, 2);
        assertThat(h1.passAtK().get(1)).isCloseTo(0.5, within(1e-12));
        assertThat(h1.passAtK().get(2)).isCloseTo(1.0, within(1e-12));
        assertThat(h1.meanReward()).isCloseTo(0.75, within(1e-12));
        assertThat(h1.rewardMeasured()).isEqualTo(2);
        assertThat(h1.tokensMeasured()).isEqualTo(3);
        assertThat(h1.tokensIn()).isEqualTo(300L);
        assertThat(h1.costMeasured()).isEqualTo(3);
        assertThat(h1.costUsd()).isEqualByComparingTo("0.60");
        assertThat(h1.costPerPass()).as("a partly measured cost has no cost per pass").isNull();
        assertThat(h1.medianDurationMs()).isEqualTo(1500L);
        assertThat(h1.errorClasses()).containsEntry("failed", 1).containsEntry("error", 1);
        Metrics h2 = m.combo("h2", "b").orElseThrow().metrics();
        assertThat(h2.costPerPass()).as("$0.04 over 3 passes").isEqualByComparingTo("0.013333");
        assertThat(h2.errorClasses()).containsEntry("verifier-timeout", 1);
        assertThat(m.passRate("h2", "b")).isEqualTo(0.75);
        assertThat(m.cells().get("t2").get("h2 / b").passed()).isEqualTo(1);
        assertThat(m.tasks().get("t1").runs()).isEqualTo(4);
        assertThat(SummaryFormat.leaderboard(m)).contains("pass@2", "75%", "(3/4 measured)");
        ResultRow noTokens = row("h3", "c", "t1", 1, "completed", "passed", null, null, null, null);
        Metrics h3 = Metrics.of(List.of(noTokens));
        assertThat(h3.tokensIn()).isNull();
        assertThat(h3.costUsd()).isNull();
        assertThat(h3.medianDurationMs()).isNull();
        assertThat(SummaryFormat.leaderboard(BenchMetrics.of(List.of(noTokens)))).contains("unmeasured");
    }
}
