package dev.harness4j.bench;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Two benches side by side, a baseline and a current one (two bench ids in one state dir, or a
 * saved copy of a state dir): per task × combo cell whether it newly fails or newly passes, and per
 * combo the pass-rate delta with both 95% intervals, and the cost and median-time deltas. Tasks
 * are matched by their id (the label without its bench id), combos by harness and model. Pure.
 *
 * <pre>{@code
 * BenchSummary all = BenchSummary.read(stateDir);
 * BenchComparison c = BenchComparison.of(all.forBench("nightly-41").rows(), all.forBench("nightly-42").rows());
 * System.out.print(SummaryFormat.compare(c));
 * }</pre>
 *
 * <p>A cell's verdict is {@code pass} when every trial passed, {@code fail} when none did, else
 * {@code flaky}. It is newly failing when it was {@code pass} or {@code flaky} and is now {@code
 * fail}, newly passing when it was {@code fail} and now is not.
 */
public final class BenchComparison {
    /** A cell's verdict over its trials. */
    public enum Verdict {
        PASS, FLAKY, FAIL, ABSENT;

        static Verdict of(Metrics m) {
            return m == null ? ABSENT : m.passed() == m.runs() ? PASS : m.passed() == 0 ? FAIL : FLAKY;
        }
    }

    /**
     * One task × combo cell in both benches.
     *
     * @param task the task's id
     * @param combo {@code harness / model}
     * @param before its verdict in the baseline
     * @param after its verdict now
     */
    public record Cell(String task, String combo, Verdict before, Verdict after) {
        public boolean newlyFailing() {
            return (before == Verdict.PASS || before == Verdict.FLAKY) && after == Verdict.FAIL;
        }

        public boolean newlyPassing() {
            return before == Verdict.FAIL && (after == Verdict.PASS || after == Verdict.FLAKY);
        }
    }

    /**
     * One combo in both benches; a figure absent on either side is {@code null}.
     *
     * @param combo {@code harness / model}
     * @param before its metrics in the baseline, or {@code null} when it was not run there
     * @param after its metrics now, or {@code null}
     */
    public record ComboDelta(String combo, Metrics before, Metrics after) {
        /** The pass rate now minus before, or {@code null} when one side is missing. */
        public Double passRateDelta() {
            return before == null || after == null ? null : after.passRate() - before.passRate();
        }

        /** Whether the two 95% intervals do not overlap (a change unlikely to be noise). */
        public boolean significant() {
            return before != null && after != null
                    && (after.passRateLow() > before.passRateHigh() || after.passRateHigh() < before.passRateLow());
        }

        /** The measured cost now minus before, or {@code null} when either side is unmeasured or missing. */
        public BigDecimal costDelta() {
            return before == null || after == null || before.costUsd() == null || after.costUsd() == null ? null
                    : after.costUsd().subtract(before.costUsd());
        }

        /** The median wall time now minus before, or {@code null}. */
        public Long medianDurationDeltaMs() {
            return before == null || after == null || before.medianDurationMs() == null || after.medianDurationMs() == null
                    ? null : after.medianDurationMs() - before.medianDurationMs();
        }
    }

    private final List<Cell> cells;
    private final List<ComboDelta> combos;

    private BenchComparison(List<Cell> cells, List<ComboDelta> combos) {
        this.cells = List.copyOf(cells);
        this.combos = List.copyOf(combos);
    }

    /** Compares the results of a baseline bench with the current one's. */
    public static BenchComparison of(List<ResultRow> baseline, List<ResultRow> current) {
        Objects.requireNonNull(baseline, "baseline");
        Objects.requireNonNull(current, "current");
        Map<String, Map<String, Metrics>> before = cells(baseline);
        Map<String, Map<String, Metrics>> after = cells(current);
        Set<String> tasks = new LinkedHashSet<>(new TreeMap<>(before).keySet());
        tasks.addAll(new TreeMap<>(after).keySet());
        List<Cell> cells = new ArrayList<>();
        for (String t : tasks) {
            Set<String> combos = new LinkedHashSet<>(new TreeMap<>(before.getOrDefault(t, Map.of())).keySet());
            combos.addAll(new TreeMap<>(after.getOrDefault(t, Map.of())).keySet());
            for (String c : combos) {
                cells.add(new Cell(t, c, Verdict.of(before.getOrDefault(t, Map.of()).get(c)),
                        Verdict.of(after.getOrDefault(t, Map.of()).get(c))));
            }
        }
        Map<String, Metrics> b = byCombo(baseline);
        Map<String, Metrics> a = byCombo(current);
        Set<String> names = new LinkedHashSet<>(a.keySet());
        names.addAll(b.keySet());
        List<ComboDelta> deltas = names.stream().map(n -> new ComboDelta(n, b.get(n), a.get(n))).toList();
        return new BenchComparison(cells, deltas);
    }

    public List<Cell> cells() {
        return cells;
    }

    public List<Cell> newlyFailing() {
        return cells.stream().filter(Cell::newlyFailing).toList();
    }

    public List<Cell> newlyPassing() {
        return cells.stream().filter(Cell::newlyPassing).toList();
    }

    /** Per combo, in the current bench's leaderboard order, then combos only the baseline ran. */
    public List<ComboDelta> combos() {
        return combos;
    }

    /** The task id of a label: what follows the bench id's {@code /}. */
    static String taskId(String label) {
        return label == null ? "null" : label.substring(label.indexOf('/') + 1);
    }

    private static Map<String, Map<String, Metrics>> cells(List<ResultRow> rows) {
        Map<String, Map<String, List<ResultRow>>> grouped = new TreeMap<>();
        for (ResultRow r : rows) {
            grouped.computeIfAbsent(taskId(r.task()), k -> new TreeMap<>()).computeIfAbsent(r.label(), k -> new ArrayList<>())
                    .add(r);
        }
        Map<String, Map<String, Metrics>> out = new TreeMap<>();
        grouped.forEach((t, m) -> out.put(t, m.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey,
                e -> Metrics.of(e.getValue()), (x, y) -> x, TreeMap::new))));
        return out;
    }

    private static Map<String, Metrics> byCombo(List<ResultRow> rows) {
        Map<String, Metrics> out = new java.util.LinkedHashMap<>();
        for (BenchMetrics.ComboMetrics c : BenchMetrics.of(rows).leaderboard()) {
            out.putIfAbsent(c.label(), c.metrics());
        }
        return out;
    }
}
