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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A bench's {@link BenchMetrics} aggregated by PostgreSQL: one query groups the results by
 * combo and task (the finest group every figure is made of) and returns per group counts, sums,
 * its measured durations and why its runs did not pass; the groups are merged per combo, per
 * task and per task × combo cell, and harness-bench's {@link Metrics#of(Metrics.Tally)} turns each
 * into its figures. No result row is loaded into Java.
 *
 * <p>The same figures as {@code BenchMetrics.of(rows)} on every row: a pass is what {@code
 * ResultRow.passed()} says (the verification passed, or a run without one completed), a task
 * label is {@code String.valueOf(task)}, a cell's combo label {@code harness / model}, error
 * classes are {@link Metrics#errorClass}. Only the mean reward and pass@k may differ in their last
 * bits (sums of doubles added in another order).
 */
public final class MetricsQuery {
    private MetricsQuery() {}

    /** One group per combo and task; the pass rule is {@code ResultRow.passed()}. */
    private static final String SQL = "SELECT harness, provider, model, task, count(*),"
            + " count(*) FILTER (WHERE pass), coalesce(sum(reward), 0), count(reward),"
            + " string_agg(duration_ms::text, ','),"
            + " coalesce(sum(tokens_in) FILTER (WHERE tok), 0), coalesce(sum(tokens_out) FILTER (WHERE tok), 0),"
            + " count(*) FILTER (WHERE tok), coalesce(sum(cost_usd), 0), count(cost_usd),"
            + " min(cost_source) FILTER (WHERE cost_usd IS NOT NULL), max(cost_source) FILTER (WHERE cost_usd IS NOT NULL),"
            + " string_agg(coalesce(verify_status, '') || E'\\t' || outcome, E'\\n') FILTER (WHERE NOT pass), min(dir)"
            + " FROM (SELECT harness, provider, model, task,"
            + " CASE WHEN verify_status IS NOT NULL THEN verify_status = 'passed' ELSE outcome = 'completed' END AS pass,"
            + " verify_status, outcome, reward, duration_ms, tokens_in IS NOT NULL AND tokens_out IS NOT NULL AS tok,"
            + " tokens_in, tokens_out, cost_usd, cost_source, dir FROM h4j_result WHERE ?::text IS NULL OR bench = ?) r"
            + " GROUP BY harness, provider, model, task";

    /** Every cost source per combo and task, read only when a group has more than one. */
    private static final String SOURCES = "SELECT DISTINCT harness, provider, model, task, cost_source"
            + " FROM h4j_result WHERE (?::text IS NULL OR bench = ?) AND cost_usd IS NOT NULL AND cost_source IS NOT NULL";

    /** The sums of a group being merged. */
    private static final class Sum {
        int runs;
        int passed;
        double rewardSum;
        int rewards;
        long[] durations = new long[4];
        int measured;
        long tokensIn;
        long tokensOut;
        int tokensMeasured;
        BigDecimal cost = BigDecimal.ZERO;
        int costs;
        Set<String> sources = Set.of();
        Map<String, Integer> errors = Map.of();
        List<int[]> tasks = new ArrayList<>(1);
        String first;

        void add(Sum f) {
            runs += f.runs;
            passed += f.passed;
            rewardSum += f.rewardSum;
            rewards += f.rewards;
            if (measured + f.measured > durations.length) {
                durations = Arrays.copyOf(durations, Math.max(durations.length * 2, measured + f.measured));
            }
            System.arraycopy(f.durations, 0, durations, measured, f.measured);
            measured += f.measured;
            tokensIn += f.tokensIn;
            tokensOut += f.tokensOut;
            tokensMeasured += f.tokensMeasured;
            cost = cost.add(f.cost);
            costs += f.costs;
            if (!f.sources.isEmpty() && !sources.containsAll(f.sources)) {
                sources = new TreeSet<>(sources);
                sources.addAll(f.sources);
            }
            if (!f.errors.isEmpty()) {
                if (errors.isEmpty()) {
                    errors = new TreeMap<>();
                }
                f.errors.forEach((k, v) -> errors.merge(k, v, Integer::sum));
            }
            if (first == null || f.first.compareTo(first) < 0) {
                first = f.first;
            }
        }

        Metrics metrics(List<int[]> perTask) {
            Long median = null;
            if (measured > 0) {
                long[] d = Arrays.copyOf(durations, measured);
                Arrays.sort(d);
                median = Metrics.median(d[(measured - 1) / 2], d[measured / 2]);
            }
            return Metrics.of(new Metrics.Tally(runs, passed, perTask, rewardSum, rewards, median, tokensIn, tokensOut,
                    tokensMeasured, cost, costs, sources, errors));
        }
    }

    /** The metrics of one bench's results ({@code null}: every result), read in the caller's transaction. */
    public static BenchMetrics metrics(Connection c, String bench) throws SQLException {
        Map<List<String>, Sum> fine = new HashMap<>();
        boolean manySources = false;
        try (PreparedStatement p = prepare(c, SQL, bench); ResultSet r = p.executeQuery()) {
            while (r.next()) {
                Sum f = new Sum();
                f.runs = r.getInt(5);
                f.passed = r.getInt(6);
                f.rewardSum = r.getDouble(7);
                f.rewards = r.getInt(8);
                String durations = r.getString(9);
                if (durations != null) {
                    String[] parts = durations.split(",");
                    f.durations = new long[parts.length];
                    for (String d : parts) {
                        f.durations[f.measured++] = Long.parseLong(d);
                    }
                }
                f.tokensIn = r.getLong(10);
                f.tokensOut = r.getLong(11);
                f.tokensMeasured = r.getInt(12);
                f.cost = r.getBigDecimal(13);
                f.costs = r.getInt(14);
                String low = r.getString(15);
                String high = r.getString(16);
                if (low != null) {
                    f.sources = low.equals(high) ? Set.of(low) : new TreeSet<>(List.of(low, high));
                    manySources |= !low.equals(high);
                }
                String errors = r.getString(17);
                if (errors != null) {
                    f.errors = new TreeMap<>();
                    for (String e : errors.split("\n", -1)) {
                        int tab = e.indexOf('\t');
                        String status = e.substring(0, tab);
                        f.errors.merge(Metrics.errorClass(status.isEmpty() ? null : status, e.substring(tab + 1)), 1,
                                Integer::sum);
                    }
                }
                f.first = r.getString(18);
                String harness = r.getString(1);
                String model = r.getString(3);
                // the task label and the cell's combo label as harness-bench's rows have them
                fine.merge(Arrays.asList(harness, r.getString(2), model, String.valueOf(r.getString(4)),
                        harness + " / " + (model == null ? "(default)" : model)), f, (a, b) -> {
                            a.add(b); // no task and the task "null": one label, as in harness-bench
                            return a;
                        });
            }
        }
        if (manySources) {
            allSources(c, bench, fine);
        }
        Map<List<String>, Sum> combos = new HashMap<>();
        Map<String, Sum> tasks = new HashMap<>();
        Map<List<String>, Sum> cells = new HashMap<>();
        fine.forEach((k, f) -> {
            Sum combo = combos.computeIfAbsent(k.subList(0, 3), x -> new Sum());
            combo.add(f);
            combo.tasks.add(new int[] {f.runs, f.passed}); // one fine group per combo and task
            tasks.computeIfAbsent(k.get(3), x -> new Sum()).add(f);
        });
        // last, as a cell takes over its first fine group (most cells have one: one provider per harness and model)
        fine.forEach((k, f) -> cells.merge(k.subList(3, 5), f, (a, b) -> {
            a.add(b);
            return a;
        }));
        List<Map.Entry<List<String>, Sum>> ordered = new ArrayList<>(combos.entrySet());
        ordered.sort(Map.Entry.comparingByValue((a, b) -> a.first.compareTo(b.first))); // as the rows come, by dir
        List<BenchMetrics.ComboMetrics> board = new ArrayList<>();
        for (Map.Entry<List<String>, Sum> e : ordered) {
            List<String> k = e.getKey();
            board.add(new BenchMetrics.ComboMetrics(k.get(0), k.get(1), k.get(2), e.getValue().metrics(e.getValue().tasks)));
        }
        Map<String, Metrics> byTask = new HashMap<>();
        tasks.forEach((k, s) -> byTask.put(k, s.metrics(List.of(new int[] {s.runs, s.passed}))));
        Map<String, Map<String, Metrics>> byCell = new HashMap<>();
        cells.forEach((k, s) -> byCell.computeIfAbsent(k.get(0), t -> new HashMap<>())
                .put(k.get(1), s.metrics(List.of(new int[] {s.runs, s.passed}))));
        return BenchMetrics.of(board, byTask, byCell);
    }

    /** Every cost source of the groups whose measured costs come from more than one. */
    private static void allSources(Connection c, String bench, Map<List<String>, Sum> fine) throws SQLException {
        Map<List<String>, Set<String>> all = new LinkedHashMap<>();
        try (PreparedStatement p = prepare(c, SOURCES, bench); ResultSet r = p.executeQuery()) {
            while (r.next()) {
                all.computeIfAbsent(Arrays.asList(r.getString(1), r.getString(2), r.getString(3), String.valueOf(r.getString(4))),
                        k -> new TreeSet<>()).add(r.getString(5));
            }
        }
        fine.forEach((k, f) -> {
            if (f.sources.size() > 1) {
                f.sources = all.get(k.subList(0, 4));
            }
        });
    }

    private static PreparedStatement prepare(Connection c, String sql, String bench) throws SQLException {
        PreparedStatement p = c.prepareStatement(sql);
        p.setString(1, bench);
        p.setString(2, bench);
        p.setFetchSize(10_000);
        return p;
    }
}
