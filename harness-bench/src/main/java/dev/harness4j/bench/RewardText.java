package dev.harness4j.bench;

import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Collectors;

/** Named metrics as text, for the summary's formats and the report: {@code tests 1.00, lint 0.50}. Pure. */
final class RewardText {
    private RewardText() {}

    /** A run's metrics, {@code tests 1.00, lint 0.50}; empty for none. */
    static String of(Map<String, Double> metrics) {
        return metrics.entrySet().stream().map(e -> e.getKey() + " " + two(e.getValue())).collect(Collectors.joining(", "));
    }

    /** A group's means, {@code tests 1.00, lint 0.50 (1/2 measured)}; {@code -} for none. */
    static String means(Map<String, Metrics.MetricMean> means, int runs) {
        if (means.isEmpty()) {
            return "-";
        }
        return means.entrySet().stream().map(e -> e.getKey() + " " + two(e.getValue().mean())
                + (e.getValue().measured() == runs ? "" : " (" + e.getValue().measured() + "/" + runs + " measured)"))
                .collect(Collectors.joining(", "));
    }

    /** Every metric name of these rows, sorted. */
    static List<String> names(Collection<ResultRow> rows) {
        TreeSet<String> names = new TreeSet<>();
        rows.forEach(r -> names.addAll(r.rewards().keySet()));
        return List.copyOf(names);
    }

    /** Whether any combo of these has named metrics. */
    static boolean any(Collection<BenchMetrics.ComboMetrics> combos) {
        return combos.stream().anyMatch(c -> !c.metrics().rewards().isEmpty());
    }

    /**
     * The named metrics of a comparison, one line per combo and metric with both means and the
     * delta: {@code claude-code / m  lint  0.50 -> 1.00  +0.50}; empty when neither side has any.
     */
    static String compare(BenchComparison c) {
        StringBuilder sb = new StringBuilder();
        for (BenchComparison.ComboDelta d : c.combos()) {
            TreeSet<String> names = new TreeSet<>();
            Map<String, Metrics.MetricMean> before = d.before() == null ? Map.of() : d.before().rewards();
            Map<String, Metrics.MetricMean> after = d.after() == null ? Map.of() : d.after().rewards();
            names.addAll(before.keySet());
            names.addAll(after.keySet());
            for (String n : names) {
                Metrics.MetricMean b = before.get(n);
                Metrics.MetricMean a = after.get(n);
                sb.append("  ").append(d.combo()).append("  ").append(n).append("  ").append(b == null ? "-" : two(b.mean()))
                        .append(" -> ").append(a == null ? "-" : two(a.mean()))
                        .append(a == null || b == null ? "" : String.format(Locale.ROOT, "  %+.2f", a.mean() - b.mean()))
                        .append('\n');
            }
        }
        return sb.length() == 0 ? "" : "rewards per metric (mean before -> after):\n" + sb;
    }

    static String two(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }
}
