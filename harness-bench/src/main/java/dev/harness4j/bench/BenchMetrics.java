package dev.harness4j.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A bench's {@link Metrics}: per combo (harness, provider, model) as a leaderboard, per task, and
 * per task × combo cell. Pure and immutable; computed from a {@link BenchSummary}'s rows. The
 * reference harnesses' runs are kept apart in {@link #references()}, never on the leaderboard.
 *
 * <pre>{@code
 * BenchMetrics m = BenchMetrics.of(BenchSummary.read(runner.results()));
 * System.out.print(SummaryFormat.leaderboard(m));
 * double rate = m.passRate("claude-code", "scripted-a");
 * }</pre>
 */
public final class BenchMetrics {
    /**
     * One combo's figures.
     *
     * @param harness the harness id
     * @param provider the provider, or {@code null}
     * @param model the model, or {@code null}
     * @param metrics its figures over every task and trial
     */
    public record ComboMetrics(String harness, String provider, String model, Metrics metrics) {
        public ComboMetrics {
            Objects.requireNonNull(harness, "harness");
            Objects.requireNonNull(metrics, "metrics");
        }

        /** {@code harness / model}. */
        public String label() {
            return harness + " / " + (model == null ? "(default)" : model);
        }
    }

    private final List<ComboMetrics> leaderboard;
    private final Map<String, Metrics> tasks;
    private final Map<String, Map<String, Metrics>> cells;
    private final List<ComboMetrics> references;

    private BenchMetrics(List<ComboMetrics> leaderboard, Map<String, Metrics> tasks, Map<String, Map<String, Metrics>> cells,
            List<ComboMetrics> references) {
        this.references = List.copyOf(references);
        this.leaderboard = List.copyOf(leaderboard);
        this.tasks = Collections.unmodifiableMap(tasks);
        this.cells = Collections.unmodifiableMap(cells);
    }

    /** The metrics of every readable result of a summary. */
    public static BenchMetrics of(BenchSummary summary) {
        return of(summary.rows());
    }

    /** The metrics of these rows. */
    public static BenchMetrics of(List<ResultRow> rows) {
        Map<List<String>, List<ResultRow>> refs = new LinkedHashMap<>();
        List<ResultRow> agents = new ArrayList<>();
        for (ResultRow r : rows) {
            if (r.reference()) {
                refs.computeIfAbsent(java.util.Arrays.asList(r.harness(), r.provider(), r.model()), k -> new ArrayList<>()).add(r);
            } else {
                agents.add(r);
            }
        }
        BenchMetrics m = ofAgents(agents);
        List<ComboMetrics> references = new ArrayList<>();
        refs.forEach((k, v) -> references.add(new ComboMetrics(k.get(0), k.get(1), k.get(2), Metrics.of(v))));
        references.sort(Comparator.comparing(ComboMetrics::label));
        return new BenchMetrics(m.leaderboard, m.tasks, m.cells, references);
    }

    private static BenchMetrics ofAgents(List<ResultRow> rows) {
        Map<List<String>, List<ResultRow>> byCombo = new LinkedHashMap<>();
        Map<String, List<ResultRow>> byTask = new TreeMap<>();
        Map<String, Map<String, List<ResultRow>>> byCell = new TreeMap<>();
        for (ResultRow r : rows) {
            byCombo.computeIfAbsent(java.util.Arrays.asList(r.harness(), r.provider(), r.model()), k -> new ArrayList<>()).add(r);
            String task = String.valueOf(r.task());
            byTask.computeIfAbsent(task, k -> new ArrayList<>()).add(r);
            byCell.computeIfAbsent(task, k -> new TreeMap<>()).computeIfAbsent(r.label(), k -> new ArrayList<>()).add(r);
        }
        List<ComboMetrics> board = new ArrayList<>();
        byCombo.forEach((k, v) -> board.add(new ComboMetrics(k.get(0), k.get(1), k.get(2), Metrics.of(v))));
        Map<String, Metrics> tasks = new LinkedHashMap<>();
        byTask.forEach((k, v) -> tasks.put(k, Metrics.of(v)));
        Map<String, Map<String, Metrics>> cells = new LinkedHashMap<>();
        byCell.forEach((t, m) -> {
            Map<String, Metrics> row = new LinkedHashMap<>();
            m.forEach((label, v) -> row.put(label, Metrics.of(v)));
            cells.put(t, row);
        });
        return of(board, tasks, cells);
    }

    /**
     * The metrics of figures computed elsewhere (a database's aggregates, see {@link Metrics#of(Metrics.Tally)}).
     *
     * @param combos every combo, in the order of their first result (the order ties keep)
     * @param tasks the figures per task label ({@code String.valueOf(task)})
     * @param cells the figures per task label, then per combo label ({@code harness / model})
     */
    public static BenchMetrics of(List<ComboMetrics> combos, Map<String, Metrics> tasks,
            Map<String, Map<String, Metrics>> cells) {
        List<ComboMetrics> board = new ArrayList<>(combos);
        board.sort(Comparator.comparingDouble((ComboMetrics c) -> -c.metrics().passRate())
                .thenComparingDouble(c -> -c.metrics().passRateLow())
                .thenComparing(c -> c.metrics().costPerPass(), Comparator.nullsLast(Comparator.naturalOrder()))
                .thenComparing(ComboMetrics::label));
        Map<String, Map<String, Metrics>> sortedCells = new LinkedHashMap<>();
        new TreeMap<>(cells).forEach((t, row) -> sortedCells.put(t, Collections.unmodifiableMap(new TreeMap<>(row))));
        return new BenchMetrics(board, new TreeMap<>(tasks), sortedCells, List.of());
    }

    /**
     * The runs of the reference harnesses ({@code nop}, {@code oracle}: {@link
     * dev.harness4j.bench.reference.ReferenceHarnesses}), one entry per harness, by label: they
     * check the verifiers and are never ranked, nor counted in {@link #tasks()} or {@link #cells()}.
     */
    public List<ComboMetrics> references() {
        return references;
    }

    /** Every agent combo, best first: by pass rate, then the interval's lower bound, then cost per pass. */
    public List<ComboMetrics> leaderboard() {
        return leaderboard;
    }

    /** The figures per task label, over every combo. */
    public Map<String, Metrics> tasks() {
        return tasks;
    }

    /** The figures per task label, then per combo label ({@code harness / model}). */
    public Map<String, Map<String, Metrics>> cells() {
        return cells;
    }

    /** The combo of this harness and model (any provider; the first on the leaderboard). */
    public Optional<ComboMetrics> combo(String harness, String model) {
        return leaderboard.stream().filter(c -> c.harness().equals(harness) && Objects.equals(c.model(), model)).findFirst();
    }

    /**
     * The pass rate of a harness and model over every task and trial.
     *
     * @throws IllegalArgumentException when the bench has no run of them
     */
    public double passRate(String harness, String model) {
        return combo(harness, model).orElseThrow(() -> new IllegalArgumentException("no run of " + harness + " / " + model
                + " in this bench; combos: " + leaderboard.stream().map(ComboMetrics::label).toList()))
                .metrics().passRate();
    }
}
