package dev.harness4j.postgres.internal;

import dev.harness4j.bench.BenchMetrics;
import dev.harness4j.bench.Metrics;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A bench's {@link BenchMetrics} from the database without building a {@code ResultRow} per run:
 * one query reads only the columns the figures need (no meta.json, no sort), sums them per combo
 * and task (the finest group every figure is made of), merges those per combo, per task and per
 * task × combo cell, and harness-bench's {@link Metrics#of(Metrics.Tally)} turns each into its
 * figures.
 *
 * <p>The same figures as {@code BenchMetrics.of(rows)} on every row: a pass is what {@code
 * ResultRow.passed()} says (the verification passed, or a run without one completed), a task
 * label is {@code String.valueOf(task)}, a cell's combo label {@code harness / model}, error
 * classes are {@link Metrics#errorClass}, combos tied on the leaderboard keep the order of their
 * first result directory. Only the mean reward and pass@k may differ in their last bits (sums of
 * doubles added in another order).
 *
 * <p>Measured against grouping in SQL ({@code GROUP BY} combo and task, then the same merge):
 * 2.3 s against 1.4–2.0 s over 100,000 runs of one run per cell on a loaded 2-core machine — the
 * {@code GROUP BY} costs the server more than sending the narrow lines (docs/SCALING.md). With one
 * run per cell most of the time went to allocating (a JFR profile: young-GC pauses of 100–180 ms
 * copying the live maps), so the sums are kept lean: combos looked up through nested maps (no key
 * object per run), one {@link Sum} per combo and task holding plain fields (sets and maps only
 * when a run needs one), a cell of one combo and task reusing that sum, and the result maps built
 * sorted.
 */
public final class MetricsQuery {
    private MetricsQuery() {}

    /** The sums of a group of runs: one combo and task as read, or a merge of such groups. */
    private static final class Sum {
        int runs;
        int passed;
        double rewardSum;
        int rewards;
        long[] durations;
        int measured;
        long tokensIn;
        long tokensOut;
        int tokensMeasured;
        BigDecimal cost = BigDecimal.ZERO;
        int costs;
        Set<String> sources = Set.of();
        Map<String, Integer> errors = Map.of();
        Map<String, Metrics.MetricSum> metrics = Map.of(); // a verifier's named metrics: a map only when a run has some
        List<int[]> tasks; // a merged group's {trials, passed} per combo and task (pass@k)

        void addDuration(long d) {
            if (durations == null) {
                durations = new long[1];
            } else if (measured == durations.length) {
                durations = Arrays.copyOf(durations, measured * 2);
            }
            durations[measured++] = d;
        }

        void addSource(String source) {
            if (sources.contains(source)) {
                return;
            }
            if (sources.isEmpty()) {
                sources = Set.of(source);
            } else {
                Set<String> more = new TreeSet<>(sources);
                more.add(source);
                sources = more;
            }
        }

        void addErrors(String errorClass, int n) {
            if (errors.isEmpty()) {
                errors = Map.of(errorClass, n); // most groups of one run: no tree
                return;
            }
            if (!(errors instanceof TreeMap)) {
                errors = new TreeMap<>(errors);
            }
            errors.merge(errorClass, n, Integer::sum);
        }

        void addMetric(String name, Metrics.MetricSum value) {
            if (metrics.isEmpty()) {
                metrics = new TreeMap<>();
            }
            metrics.merge(name, value, (a, b) -> new Metrics.MetricSum(a.sum() + b.sum(), a.measured() + b.measured()));
        }

        void add(Sum f) {
            runs += f.runs;
            passed += f.passed;
            rewardSum += f.rewardSum;
            rewards += f.rewards;
            if (f.measured > 0) {
                if (durations == null || measured + f.measured > durations.length) {
                    durations = Arrays.copyOf(durations == null ? new long[0] : durations,
                            Math.max(durations == null ? 4 : durations.length * 2, measured + f.measured));
                }
                System.arraycopy(f.durations, 0, durations, measured, f.measured);
                measured += f.measured;
            }
            tokensIn += f.tokensIn;
            tokensOut += f.tokensOut;
            tokensMeasured += f.tokensMeasured;
            cost = cost.add(f.cost);
            costs += f.costs;
            f.sources.forEach(this::addSource);
            f.errors.forEach(this::addErrors);
            f.metrics.forEach(this::addMetric);
        }

        /** A fresh sum of these groups (they stay as they are). */
        static Sum merged(Sum a, Sum b) {
            Sum m = new Sum();
            m.add(a);
            m.add(b);
            return m;
        }

        /** Its figures, pass@k over {@code perTask}, or over this group as one task when {@code null}. */
        Metrics metrics(List<int[]> perTask) {
            Long median = null;
            if (measured > 0) {
                Arrays.sort(durations, 0, measured); // the order of the values matters to nothing else
                median = Metrics.median(durations[(measured - 1) / 2], durations[measured / 2]);
            }
            return Metrics.of(new Metrics.Tally(runs, passed, perTask != null ? perTask : List.of(new int[] {runs, passed}),
                    rewardSum, rewards, median, tokensIn, tokensOut, tokensMeasured, cost, costs, sources, errors, metrics));
        }
    }

    /** One combo's groups per task label, as read. */
    private static final class Combo {
        final String harness;
        final String provider;
        final String model;
        final String label;
        final Map<String, Sum> byTask = new HashMap<>();
        String first; // its first result directory: ties on the leaderboard keep this order

        Combo(String harness, String provider, String model) {
            this.harness = harness;
            this.provider = provider;
            this.model = model;
            this.label = harness + " / " + (model == null ? "(default)" : model);
        }
    }

    /** The metrics of one bench's results ({@code null}: every result), read in the caller's transaction. */
    public static BenchMetrics metrics(Connection c, String bench) throws SQLException {
        List<Combo> combos = read(c, bench);
        combos.sort((a, b) -> a.first.compareTo(b.first)); // as the rows come, by dir
        List<BenchMetrics.ComboMetrics> board = new ArrayList<>();
        SortedMap<String, Sum> tasks = new TreeMap<>();
        SortedMap<String, SortedMap<String, Sum>> cells = new TreeMap<>();
        for (Combo combo : combos) {
            Sum total = new Sum();
            total.tasks = new ArrayList<>(combo.byTask.size());
            combo.byTask.forEach((task, f) -> {
                total.add(f);
                total.tasks.add(new int[] {f.runs, f.passed}); // one group per combo and task
                tasks.computeIfAbsent(task, t -> new Sum()).add(f);
                // a cell is harness / model: the groups of two providers of one harness and model merge
                cells.computeIfAbsent(task, t -> new TreeMap<>()).merge(combo.label, f,
                        (a, b) -> a.tasks != null ? addTo(a, b) : mergedCell(a, b));
            });
            board.add(new BenchMetrics.ComboMetrics(combo.harness, combo.provider, combo.model, total.metrics(total.tasks)));
        }
        SortedMap<String, Metrics> byTask = new TreeMap<>();
        tasks.forEach((k, s) -> byTask.put(k, s.metrics(null)));
        SortedMap<String, Map<String, Metrics>> byCell = new TreeMap<>();
        cells.forEach((task, row) -> {
            SortedMap<String, Metrics> out = new TreeMap<>();
            row.forEach((label, s) -> out.put(label, s.metrics(null)));
            byCell.put(task, out);
        });
        return BenchMetrics.of(board, byTask, byCell);
    }

    private static Sum addTo(Sum merged, Sum f) {
        merged.add(f);
        return merged;
    }

    /** A cell of two groups: a fresh sum, marked as merged by its task list (pass@k of a cell is over itself). */
    private static Sum mergedCell(Sum a, Sum b) {
        Sum m = Sum.merged(a, b);
        m.tasks = List.of();
        return m;
    }

    /**
     * The columns the figures need, one line per run (no meta.json, no directory but for the combo
     * order, no sort); the pass rule is {@code ResultRow.passed()}.
     */
    private static final String ROWS = "SELECT harness, provider, model, task, verify_status, outcome,"
            + " CASE WHEN verify_status IS NOT NULL THEN verify_status = 'passed' ELSE outcome = 'completed' END,"
            + " reward, duration_ms, tokens_in, tokens_out, cost_usd, cost_source, dir, rewards::text FROM h4j_result"
            + " WHERE ?::text IS NULL OR bench = ?";

    /** Every combo with its sums per task label, read from the narrow lines of every run. */
    private static List<Combo> read(Connection c, String bench) throws SQLException {
        Map<String, Map<String, Map<String, Combo>>> index = new HashMap<>(); // harness -> provider -> model
        List<Combo> combos = new ArrayList<>();
        try (PreparedStatement p = prepare(c, ROWS, bench); ResultSet r = p.executeQuery()) {
            while (r.next()) {
                String harness = r.getString(1);
                String provider = r.getString(2);
                String model = r.getString(3);
                Combo combo = index.computeIfAbsent(harness, h -> new HashMap<>())
                        .computeIfAbsent(provider, x -> new HashMap<>()).get(model);
                if (combo == null) {
                    combo = new Combo(harness, provider, model);
                    index.get(harness).get(provider).put(model, combo);
                    combos.add(combo);
                }
                String task = String.valueOf(r.getString(4));
                Sum f = combo.byTask.get(task);
                if (f == null) {
                    f = new Sum();
                    combo.byTask.put(task, f);
                }
                f.runs++;
                if (r.getBoolean(7)) {
                    f.passed++;
                } else {
                    f.addErrors(Metrics.errorClass(r.getString(5), r.getString(6)), 1);
                }
                double reward = r.getDouble(8);
                if (!r.wasNull()) {
                    f.rewardSum += reward;
                    f.rewards++;
                }
                long d = r.getLong(9);
                if (!r.wasNull()) {
                    f.addDuration(d);
                }
                long in = r.getLong(10);
                boolean hasIn = !r.wasNull();
                long out = r.getLong(11);
                if (hasIn && !r.wasNull()) {
                    f.tokensIn += in;
                    f.tokensOut += out;
                    f.tokensMeasured++;
                }
                BigDecimal cost = r.getBigDecimal(12);
                if (cost != null) {
                    f.cost = f.cost.add(cost);
                    f.costs++;
                    String source = r.getString(13);
                    if (source != null) {
                        f.addSource(source);
                    }
                }
                String named = r.getString(15);
                if (named != null) {
                    for (Map.Entry<String, Double> e : MetaColumns.rewards(named).entrySet()) {
                        f.addMetric(e.getKey(), new Metrics.MetricSum(e.getValue(), 1));
                    }
                }
                String dir = r.getString(14);
                if (combo.first == null || dir.compareTo(combo.first) < 0) {
                    combo.first = dir;
                }
            }
        }
        return combos;
    }

    private static PreparedStatement prepare(Connection c, String sql, String bench) throws SQLException {
        PreparedStatement p = c.prepareStatement(sql);
        p.setString(1, bench);
        p.setString(2, bench);
        p.setFetchSize(10_000);
        return p;
    }
}
