package dev.harness4j.postgres.benchmarks;

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
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The summing of {@code PgResults.metrics} as it was before it was made lean (commit b3f9ce9, one
 * {@code List} key and a full sum object per combo and task, cells merged in a second hash map):
 * kept only so the benchmark measures before and after side by side in one run.
 */
final class MetricsQueryBefore {
    private MetricsQueryBefore() {}

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
    static BenchMetrics metrics(Connection c, String bench) throws SQLException {
        Map<List<String>, Sum> fine = fineFromRows(c, bench);
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

    /**
     * The columns the figures need, one line per run (no meta.json, no directory but for the combo
     * order, no sort); the pass rule is {@code ResultRow.passed()}.
     */
    private static final String ROWS = "SELECT harness, provider, model, task, verify_status, outcome,"
            + " CASE WHEN verify_status IS NOT NULL THEN verify_status = 'passed' ELSE outcome = 'completed' END,"
            + " reward, duration_ms, tokens_in, tokens_out, cost_usd, cost_source, dir FROM h4j_result"
            + " WHERE ?::text IS NULL OR bench = ?";

    /** The sums per combo and task (with its cell's label), read from the narrow lines of every run. */
    private static Map<List<String>, Sum> fineFromRows(Connection c, String bench) throws SQLException {
        Map<List<String>, Sum> fine = new HashMap<>();
        try (PreparedStatement p = prepare(c, ROWS, bench); ResultSet r = p.executeQuery()) {
            while (r.next()) {
                String harness = r.getString(1);
                String model = r.getString(3);
                List<String> key = Arrays.asList(harness, r.getString(2), model, String.valueOf(r.getString(4)),
                        harness + " / " + (model == null ? "(default)" : model));
                Sum f = fine.get(key);
                if (f == null) {
                    f = new Sum();
                    f.sources = new TreeSet<>();
                    fine.put(key, f);
                }
                f.runs++;
                if (r.getBoolean(7)) {
                    f.passed++;
                } else {
                    if (f.errors.isEmpty()) {
                        f.errors = new TreeMap<>();
                    }
                    f.errors.merge(Metrics.errorClass(r.getString(5), r.getString(6)), 1, Integer::sum);
                }
                double reward = r.getDouble(8);
                if (!r.wasNull()) {
                    f.rewardSum += reward;
                    f.rewards++;
                }
                long d = r.getLong(9);
                if (!r.wasNull()) {
                    if (f.measured == f.durations.length) {
                        f.durations = Arrays.copyOf(f.durations, f.measured * 2);
                    }
                    f.durations[f.measured++] = d;
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
                        f.sources.add(source);
                    }
                }
                String dir = r.getString(14);
                if (f.first == null || dir.compareTo(f.first) < 0) {
                    f.first = dir;
                }
            }
        }
        return fine;
    }

    private static PreparedStatement prepare(Connection c, String sql, String bench) throws SQLException {
        PreparedStatement p = c.prepareStatement(sql);
        p.setString(1, bench);
        p.setString(2, bench);
        p.setFetchSize(10_000);
        return p;
    }
}
