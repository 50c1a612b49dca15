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
 * A bench's {@link BenchMetrics} aggregated by PostgreSQL: per combo, per task and per task ×
 * combo cell the database returns counts, sums, the two middle durations and why runs did not
 * pass; harness-bench's {@link Metrics#of(Metrics.Tally)} turns each group into its figures. No
 * result row is loaded into Java, so the time depends on the number of groups, not of runs.
 *
 * <p>The same figures as {@code BenchMetrics.of(rows)} on every row: a pass is what {@code
 * ResultRow.passed()} says (the verification passed, or a run without one completed), a task
 * label is {@code String.valueOf(task)}, a cell's combo label {@code harness / model}. Only the
 * mean reward may differ in its last bits (a sum of doubles added in another order).
 */
public final class MetricsQuery {
    private MetricsQuery() {}

    /** One run, as the aggregates read it; the pass rule is {@code ResultRow.passed()}. */
    private static final String BASE = "SELECT harness, provider, model, coalesce(task, 'null') AS tkey,"
            + " harness || ' / ' || coalesce(model, '(default)') AS label,"
            + " CASE WHEN verify_status IS NOT NULL THEN verify_status = 'passed' ELSE outcome = 'completed' END AS pass,"
            + " verify_status, outcome, reward, duration_ms, tokens_in IS NOT NULL AND tokens_out IS NOT NULL AS tok,"
            + " tokens_in, tokens_out, cost_usd, cost_source, dir FROM h4j_result WHERE ?::text IS NULL OR bench = ?";

    /** What the group figures read of a run: narrow, so the sort for the medians stays in memory. */
    private static final String FIGURES = "pass, reward, duration_ms, tok, tokens_in, tokens_out, cost_usd, cost_source";

    /** The groups: by combo, by task label, by task label and combo label. */
    private enum Level {
        COMBO("harness, provider, model"), TASK("tkey"), CELL("tkey, label");

        final String keys;
        final int width;

        Level(String keys) {
            this.keys = keys;
            this.width = keys.split(",").length;
        }
    }

    /** The figures of one group as they come from the database. */
    private static final class Group {
        int runs;
        int passed;
        double rewardSum;
        int rewards;
        Long median;
        long tokensIn;
        long tokensOut;
        int tokensMeasured;
        BigDecimal cost;
        int costs;
        Set<String> sources = Set.of();
        boolean manySources;
        Map<String, Integer> errors = Map.of();
        List<int[]> tasks = List.of();
    }

    /** The metrics of one bench's results ({@code null}: every result), read in the caller's transaction. */
    public static BenchMetrics metrics(Connection c, String bench) throws SQLException {
        Map<List<String>, Group> combos = groups(c, bench, Level.COMBO);
        Map<List<String>, Group> tasks = groups(c, bench, Level.TASK);
        Map<List<String>, Group> cells = groups(c, bench, Level.CELL);
        passAtKCounts(c, bench, combos);
        tasks.values().forEach(g -> g.tasks = List.of(new int[] {g.runs, g.passed}));
        cells.values().forEach(g -> g.tasks = List.of(new int[] {g.runs, g.passed}));

        List<BenchMetrics.ComboMetrics> board = new ArrayList<>();
        combos.forEach((k, g) -> board.add(new BenchMetrics.ComboMetrics(k.get(0), k.get(1), k.get(2), metricsOf(g))));
        Map<String, Metrics> byTask = new HashMap<>();
        tasks.forEach((k, g) -> byTask.put(k.get(0), metricsOf(g)));
        Map<String, Map<String, Metrics>> byCell = new HashMap<>();
        cells.forEach((k, g) -> byCell.computeIfAbsent(k.get(0), t -> new HashMap<>()).put(k.get(1), metricsOf(g)));
        return BenchMetrics.of(board, byTask, byCell);
    }

    private static Metrics metricsOf(Group g) {
        return Metrics.of(new Metrics.Tally(g.runs, g.passed, g.tasks, g.rewardSum, g.rewards, g.median, g.tokensIn,
                g.tokensOut, g.tokensMeasured, g.cost, g.costs, g.sources, g.errors));
    }

    /** Every group of a level, in the order of its first result directory (the order the rows would come in). */
    private static Map<List<String>, Group> groups(Connection c, String bench, Level level) throws SQLException {
        String k = level.keys;
        // the two middle durations: row numbers over the measured durations of the group, sorted once
        boolean combo = level == Level.COMBO; // only the combos need an order: that of their first result
        String sql = "SELECT " + k + ", count(*), count(*) FILTER (WHERE pass), coalesce(sum(reward), 0), count(reward),"
                + " min(duration_ms) FILTER (WHERE i = (nd + 1) / 2), min(duration_ms) FILTER (WHERE i = nd / 2 + 1),"
                + " coalesce(sum(tokens_in) FILTER (WHERE tok), 0), coalesce(sum(tokens_out) FILTER (WHERE tok), 0),"
                + " count(*) FILTER (WHERE tok), coalesce(sum(cost_usd), 0), count(cost_usd),"
                + " min(cost_source) FILTER (WHERE cost_usd IS NOT NULL),"
                + " max(cost_source) FILTER (WHERE cost_usd IS NOT NULL)" + (combo ? ", min(dir) AS first" : "")
                + " FROM (SELECT " + k + ", " + FIGURES + (combo ? ", dir" : "")
                + ", row_number() OVER (PARTITION BY " + k + " ORDER BY duration_ms) AS i,"
                + " count(duration_ms) OVER (PARTITION BY " + k + ") AS nd FROM (" + BASE + ") r) w"
                + " GROUP BY " + k + (combo ? " ORDER BY first" : "");
        Map<List<String>, Group> out = new LinkedHashMap<>();
        boolean manySources = false;
        try (PreparedStatement p = prepare(c, sql, bench); ResultSet r = p.executeQuery()) {
            int w = level.width;
            while (r.next()) {
                Group g = new Group();
                int i = w + 1;
                g.runs = r.getInt(i++);
                g.passed = r.getInt(i++);
                g.rewardSum = r.getDouble(i++);
                g.rewards = r.getInt(i++);
                long lower = r.getLong(i++);
                boolean measured = !r.wasNull();
                long upper = r.getLong(i++);
                g.median = measured ? Metrics.median(lower, upper) : null;
                g.tokensIn = r.getLong(i++);
                g.tokensOut = r.getLong(i++);
                g.tokensMeasured = r.getInt(i++);
                g.cost = r.getBigDecimal(i++);
                g.costs = r.getInt(i++);
                String first = r.getString(i++);
                String last = r.getString(i++);
                if (first != null) {
                    g.sources = Set.of(first);
                    g.manySources = !first.equals(last);
                    manySources |= g.manySources;
                }
                out.put(key(r, w), g);
            }
        }
        errors(c, bench, level, out);
        if (manySources) {
            sources(c, bench, level, out);
        }
        return out;
    }

    /** Why runs did not pass, per group: harness-bench's {@link Metrics#errorClass}. */
    private static void errors(Connection c, String bench, Level level, Map<List<String>, Group> groups)
            throws SQLException {
        String sql = "SELECT " + level.keys + ", verify_status, outcome, count(*) FROM (" + BASE + ") r WHERE NOT pass"
                + " GROUP BY " + level.keys + ", verify_status, outcome";
        try (PreparedStatement p = prepare(c, sql, bench); ResultSet r = p.executeQuery()) {
            int w = level.width;
            while (r.next()) {
                Group g = groups.get(key(r, w));
                if (g.errors.isEmpty()) {
                    g.errors = new TreeMap<>();
                }
                g.errors.merge(Metrics.errorClass(r.getString(w + 1), r.getString(w + 2)), r.getInt(w + 3), Integer::sum);
            }
        }
    }

    /** Every cost source of the groups whose measured costs come from more than one. */
    private static void sources(Connection c, String bench, Level level, Map<List<String>, Group> groups)
            throws SQLException {
        String sql = "SELECT DISTINCT " + level.keys + ", cost_source FROM (" + BASE + ") r"
                + " WHERE cost_usd IS NOT NULL AND cost_source IS NOT NULL";
        try (PreparedStatement p = prepare(c, sql, bench); ResultSet r = p.executeQuery()) {
            while (r.next()) {
                Group g = groups.get(key(r, level.width));
                if (g.manySources) {
                    g.sources = new TreeSet<>(g.sources);
                    g.sources.add(r.getString(level.width + 1));
                }
            }
        }
    }

    /** Per combo, how many tasks had n runs of which c passed (for pass@k). */
    private static void passAtKCounts(Connection c, String bench, Map<List<String>, Group> combos) throws SQLException {
        String sql = "SELECT harness, provider, model, n, p, count(*) FROM (SELECT harness, provider, model, tkey,"
                + " count(*) AS n, count(*) FILTER (WHERE pass) AS p FROM (" + BASE + ") r"
                + " GROUP BY harness, provider, model, tkey) t GROUP BY harness, provider, model, n, p";
        try (PreparedStatement p = prepare(c, sql, bench); ResultSet r = p.executeQuery()) {
            while (r.next()) {
                Group g = combos.get(key(r, 3));
                if (g.tasks.isEmpty()) {
                    g.tasks = new ArrayList<>();
                }
                int n = r.getInt(4);
                int passed = r.getInt(5);
                for (int i = r.getInt(6); i > 0; i--) {
                    g.tasks.add(new int[] {n, passed});
                }
            }
        }
    }

    private static PreparedStatement prepare(Connection c, String sql, String bench) throws SQLException {
        PreparedStatement p = c.prepareStatement(sql);
        p.setString(1, bench);
        p.setString(2, bench);
        p.setFetchSize(10_000);
        return p;
    }

    private static List<String> key(ResultSet r, int width) throws SQLException {
        String[] k = new String[width];
        for (int i = 0; i < width; i++) {
            k[i] = r.getString(i + 1);
        }
        return Arrays.asList(k);
    }
}
