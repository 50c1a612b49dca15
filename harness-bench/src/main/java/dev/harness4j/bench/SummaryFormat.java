package dev.harness4j.bench;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.harness4j.api.HarnessException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Renders a {@link BenchSummary} as a text table, CSV or JSON. Unmeasured figures print as
 * {@code unmeasured} (text), an empty cell (CSV) or {@code null} (JSON), never as 0. Money is
 * rounded for display (four decimals in the table, six in CSV and JSON); meta.json keeps each
 * figure exact. Pure functions.
 */
public final class SummaryFormat {
    private static final com.fasterxml.jackson.databind.ObjectMapper MAPPER = new com.fasterxml.jackson.databind.ObjectMapper();

    /** How many decimals money keeps in CSV and JSON. */
    static final int FIGURE_DECIMALS = 6;

    /** The word shown for a figure nobody measured. */
    public static final String UNMEASURED = "unmeasured";

    private static final String[] HEADER = {"task", "harness", "model", "trial", "outcome", "verify", "duration", "files", "+/-", "tokens in/out",
        "cost", "served", "branch"};

    private SummaryFormat() {}

    /** A fixed-width table, one line per result, then totals and any unreadable results. */
    public static String table(BenchSummary s) {
        List<String[]> lines = new ArrayList<>();
        lines.add(HEADER);
        for (ResultRow r : s.rows()) {
            lines.add(new String[] {nz(r.task()), r.harness() + (r.reference() ? " (reference)" : ""), nz(r.model()), String.valueOf(r.trial()), r.outcome(),
                nz(r.verifyStatus()) + (r.reward() == null ? "" : String.format(Locale.ROOT, " (%.2f", r.reward())
                        + (r.rewards().isEmpty() ? "" : ": " + RewardText.of(r.rewards())) + ")"),
                duration(r.durationMs()),
                nz(r.filesChanged()), lines(r), tokens(r), cost(r), nz(r.servedVerdict()), r.branch() == null ? "-" : r.branch()});
        }
        int[] width = new int[HEADER.length];
        for (String[] l : lines) {
            for (int i = 0; i < l.length; i++) {
                width[i] = Math.max(width[i], l[i].length());
            }
        }
        StringBuilder sb = new StringBuilder(lines.size() * 120);
        for (String[] l : lines) {
            int start = sb.length();
            for (int i = 0; i < l.length; i++) {
                sb.append(l[i]);
                if (i + 1 < l.length) {
                    sb.append(" ".repeat(width[i] - l[i].length() + 2));
                }
            }
            int end = sb.length();
            while (end > start && sb.charAt(end - 1) == ' ') {
                end--;
            }
            sb.setLength(end);
            sb.append('\n');
        }
        sb.append(totalsLine(s.totals())).append('\n');
        for (MetaProblem p : s.problems()) {
            sb.append("  ").append(p.kind().wireName()).append(": results/").append(p.dir()).append(" (")
                    .append(p.detail()).append(")\n");
        }
        return sb.toString();
    }

    /**
     * The leaderboard: one line per combo, best first, with its pass rate and 95% Wilson
     * interval, pass@k, mean reward, median time, tokens, cost and cost per pass (each measured
     * figure with how many runs measured it when some did not), and why runs did not pass.
     */
    public static String leaderboard(BenchMetrics m) {
        int maxK = m.leaderboard().stream().mapToInt(c -> c.metrics().passAtK().size()).max().orElse(0);
        List<Integer> ks = shownK(maxK);
        List<String> head = new ArrayList<>(List.of("#", "harness", "model", "pass", "rate", "95% CI"));
        ks.forEach(k -> head.add("pass@" + k));
        boolean named = RewardText.any(m.leaderboard());
        head.add("reward");
        if (named) {
            head.add("rewards per metric");
        }
        head.addAll(List.of("median", "tokens in/out", "cost", "cost/pass", "not passed"));
        List<String[]> lines = new ArrayList<>();
        lines.add(head.toArray(String[]::new));
        int rank = 1;
        for (BenchMetrics.ComboMetrics c : m.leaderboard()) {
            Metrics x = c.metrics();
            List<String> l = new ArrayList<>(List.of(String.valueOf(rank++), c.harness(), nz(c.model()),
                    x.passed() + "/" + x.runs(), percent(x.passRate()),
                    "[" + percent(x.passRateLow()) + ", " + percent(x.passRateHigh()) + "]"));
            for (int k : ks) {
                Double v = x.passAtK().get(k);
                l.add(v == null ? "-" : String.format(Locale.ROOT, "%.2f", v));
            }
            l.add(x.meanReward() == null ? "-" : String.format(Locale.ROOT, "%.2f", x.meanReward())
                    + measured(x.rewardMeasured(), x.runs()));
            if (named) {
                l.add(RewardText.means(x.rewards(), x.runs()));
            }
            l.add(duration(x.medianDurationMs()));
            l.add(x.tokensIn() == null ? UNMEASURED : x.tokensIn() + "/" + x.tokensOut() + measured(x.tokensMeasured(), x.runs()));
            l.add(x.costUsd() == null ? UNMEASURED : "$" + money(x.costUsd()) + measured(x.costMeasured(), x.runs())
                    + (x.costSources().isEmpty() ? "" : " (" + String.join(",", x.costSources()) + ")"));
            l.add(x.costPerPass() == null ? "-" : "$" + money(x.costPerPass()));
            l.add(x.errorClasses().isEmpty() ? "-" : x.errorClasses().entrySet().stream()
                    .map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", ")));
            lines.add(l.toArray(String[]::new));
        }
        return align(lines) + references(m);
    }

    /** The reference harnesses' verdicts, after the leaderboard and not ranked; empty when none ran. */
    private static String references(BenchMetrics m) {
        if (m.references().isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder("references (not ranked: they check the verifiers):\n");
        for (BenchMetrics.ComboMetrics c : m.references()) {
            Metrics x = c.metrics();
            sb.append("  ").append(c.harness()).append(": ").append(x.passed()).append('/').append(x.runs())
                    .append(" passed").append(x.rewards().isEmpty() ? "" : "; rewards " + RewardText.means(x.rewards(), x.runs()))
                    .append(x.errorClasses().isEmpty() ? "" : "; not passed: " + x.errorClasses()
                            .entrySet().stream().map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", ")))
                    .append('\n');
        }
        return sb.toString();
    }

    /** The task × combo grid: one line per task, one column per combo, each cell {@code passed/runs}. */
    public static String taskGrid(BenchMetrics m) {
        List<String> combos = m.leaderboard().stream().map(BenchMetrics.ComboMetrics::label).toList();
        List<String[]> lines = new ArrayList<>();
        List<String> head = new ArrayList<>(List.of("task"));
        head.addAll(combos);
        lines.add(head.toArray(String[]::new));
        m.cells().forEach((task, row) -> {
            List<String> l = new ArrayList<>(List.of(task));
            for (String c : combos) {
                Metrics x = row.get(c);
                l.add(x == null ? "-" : x.passed() + "/" + x.runs());
            }
            lines.add(l.toArray(String[]::new));
        });
        return align(lines);
    }

    /**
     * A comparison as text: the newly failing and newly passing cells, then per combo the pass
     * rate before and after with their intervals, the delta (marked {@code *} when the intervals
     * do not overlap), and the cost and median-time deltas.
     */
    public static String compare(BenchComparison c) {
        StringBuilder sb = new StringBuilder();
        sb.append("newly failing: ").append(c.newlyFailing().size()).append('\n');
        c.newlyFailing().forEach(x -> sb.append("  ").append(x.task()).append("  ").append(x.combo()).append("  ")
                .append(x.before().name().toLowerCase(Locale.ROOT)).append(" -> fail\n"));
        sb.append("newly passing: ").append(c.newlyPassing().size()).append('\n');
        c.newlyPassing().forEach(x -> sb.append("  ").append(x.task()).append("  ").append(x.combo()).append("  fail -> ")
                .append(x.after().name().toLowerCase(Locale.ROOT)).append('\n'));
        List<String[]> lines = new ArrayList<>();
        lines.add(new String[] {"combo", "before", "after", "delta", "cost delta", "median time delta"});
        for (BenchComparison.ComboDelta d : c.combos()) {
            Double delta = d.passRateDelta();
            lines.add(new String[] {d.combo(), rate(d.before()), rate(d.after()),
                delta == null ? "-" : String.format(Locale.ROOT, "%+.0f pts%s", delta * 100, d.significant() ? " *" : ""),
                d.costDelta() == null ? "-" : (d.costDelta().signum() >= 0 ? "+$" : "-$") + money(d.costDelta().abs()),
                d.medianDurationDeltaMs() == null ? "-" : (d.medianDurationDeltaMs() >= 0 ? "+" : "-")
                        + duration(Math.abs(d.medianDurationDeltaMs()))});
        }
        sb.append(align(lines)).append(RewardText.compare(c));
        return sb.toString();
    }

    private static String rate(Metrics m) {
        return m == null ? "-" : percent(m.passRate()) + " [" + percent(m.passRateLow()) + ", " + percent(m.passRateHigh())
                + "] " + m.passed() + "/" + m.runs();
    }

    private static String align(List<String[]> lines) {
        int[] width = new int[lines.get(0).length];
        for (String[] l : lines) {
            for (int i = 0; i < l.length; i++) {
                width[i] = Math.max(width[i], l[i].length());
            }
        }
        StringBuilder sb = new StringBuilder();
        for (String[] l : lines) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < l.length; i++) {
                line.append(l[i]);
                if (i + 1 < l.length) {
                    line.append(" ".repeat(width[i] - l[i].length() + 2));
                }
            }
            sb.append(line.toString().stripTrailing()).append('\n');
        }
        return sb.toString();
    }

    /** The k shown for pass@k: 1 to 5, then 10, 20, 50, ... up to the largest, which is always shown. */
    static List<Integer> shownK(int maxK) {
        List<Integer> ks = new ArrayList<>();
        for (int k = 1; k <= maxK; k++) {
            if (k <= 5 || k == maxK || k == 10 || k == 20 || k == 50 || k == 100) {
                ks.add(k);
            }
        }
        return ks;
    }

    static String percent(double v) {
        return String.format(Locale.ROOT, "%.0f%%", v * 100);
    }

    private static String measured(int measured, int runs) {
        return measured == runs ? "" : " (" + measured + "/" + runs + " measured)";
    }

    /** {@code 6 results (completed 5, error 1) · 3m 12s · tokens in 1,234 (2 unmeasured) ... · cost: $0.42 (3 unmeasured)}. */
    public static String totalsLine(BenchSummary.Totals t) {
        String outcomes = t.byOutcome().entrySet().stream().map(e -> e.getKey() + " " + e.getValue())
                .collect(Collectors.joining(", "));
        return t.results() + " results" + (outcomes.isEmpty() ? "" : " (" + outcomes + ")")
                + " · time " + duration(t.durationMs())
                + " · tokens in " + t.tokensIn() + unmeasured(t.tokensInUnmeasured())
                + ", out " + t.tokensOut() + unmeasured(t.tokensOutUnmeasured())
                + " · cost: $" + money(t.costUsd()) + unmeasured(t.costUnmeasured())
                + (t.problems() == 0 ? "" : " · " + t.problems() + " unreadable");
    }

    /**
     * One header line and one line per result; unmeasured cells are empty. After the fixed columns
     * ({@code ..., reference, verify_status, reward}) comes one {@code reward:<name>} column per
     * named metric any result has, sorted by name.
     */
    public static String csv(BenchSummary s) {
        List<String> names = RewardText.names(s.rows());
        StringBuilder sb = new StringBuilder(
                "dir,harness,provider,model,task,outcome,reason,duration_ms,files_changed,insertions,deletions,"
                        + "tokens_in,tokens_out,token_source,cost_usd,cost_source,served_verdict,branch,reference,"
                        + "verify_status,reward");
        names.forEach(n -> sb.append(',').append(csvCell("reward:" + n)));
        sb.append('\n');
        for (ResultRow r : s.rows()) {
            List<Object> cells = new ArrayList<>(java.util.Arrays.asList(r.dir(), r.harness(), r.provider(), r.model(),
                    r.task(), r.outcome(), r.reason(), r.durationMs(), r.filesChanged(), r.insertions(), r.deletions(),
                    r.tokensIn(), r.tokensOut(), r.tokenSource(), r.costUsd() == null ? null : figure(r.costUsd()).toPlainString(),
                    r.costSource(), r.servedVerdict(), r.branch(), r.reference(), r.verifyStatus(), r.reward()));
            names.forEach(n -> cells.add(r.rewards().get(n)));
            for (int i = 0; i < cells.size(); i++) {
                sb.append(csvCell(cells.get(i))).append(i + 1 < cells.size() ? "," : "\n");
            }
        }
        return sb.toString();
    }

    /** {@code {"results": [...], "totals": {...}, "problems": [...]}}. */
    public static String json(BenchSummary s) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode root = f.objectNode();
        ArrayNode results = root.putArray("results");
        for (ResultRow r : s.rows()) {
            ObjectNode n = results.addObject();
            n.put("dir", r.dir());
            n.put("harness", r.harness());
            n.put("provider", r.provider());
            n.put("model", r.model());
            n.put("task", r.task());
            n.put("outcome", r.outcome());
            n.put("reason", r.reason());
            n.put("duration_ms", r.durationMs());
            n.put("files_changed", r.filesChanged());
            n.put("insertions", r.insertions());
            n.put("deletions", r.deletions());
            n.put("tokens_in", r.tokensIn());
            n.put("tokens_out", r.tokensOut());
            n.put("token_source", r.tokenSource());
            n.put("cost_usd", figure(r.costUsd()));
            n.put("cost_source", r.costSource());
            n.put("served_verdict", r.servedVerdict());
            n.put("branch", r.branch());
            n.put("reference", r.reference());
            n.put("verify_status", r.verifyStatus());
            n.put("reward", r.reward());
            ObjectNode metrics = n.putObject("rewards");
            r.rewards().forEach(metrics::put);
        }
        BenchSummary.Totals t = s.totals();
        ObjectNode tn = root.putObject("totals");
        tn.put("results", t.results());
        ObjectNode bo = tn.putObject("by_outcome");
        t.byOutcome().forEach(bo::put);
        tn.put("duration_ms", t.durationMs());
        tn.put("tokens_in", t.tokensIn());
        tn.put("tokens_in_unmeasured", t.tokensInUnmeasured());
        tn.put("tokens_out", t.tokensOut());
        tn.put("tokens_out_unmeasured", t.tokensOutUnmeasured());
        tn.put("cost_usd", figure(t.costUsd()));
        tn.put("cost_unmeasured", t.costUnmeasured());
        ArrayNode problems = root.putArray("problems");
        for (MetaProblem p : s.problems()) {
            problems.addObject().put("dir", p.dir()).put("kind", p.kind().wireName()).put("detail", p.detail());
        }
        try {
            return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new HarnessException("cannot render the bench summary as JSON: " + e.getMessage(), e);
        }
    }

    static String duration(Long ms) {
        if (ms == null) {
            return "-";
        }
        if (ms < 60_000) {
            long tenths = (ms + 50) / 100;
            return tenths / 10 + "." + tenths % 10 + "s";
        }
        long s = ms / 1000;
        return s / 3600 > 0 ? String.format(Locale.ROOT, "%dh %02dm", s / 3600, s / 60 % 60)
                : String.format(Locale.ROOT, "%dm %02ds", s / 60, s % 60);
    }

    static String tokens(ResultRow r) {
        if (r.tokensIn() == null && r.tokensOut() == null) {
            return UNMEASURED;
        }
        return nz(r.tokensIn()) + "/" + nz(r.tokensOut()) + (r.tokenSource() == null ? "" : " (" + r.tokenSource() + ")");
    }

    static String cost(ResultRow r) {
        return r.costUsd() == null ? UNMEASURED
                : "$" + money(r.costUsd()) + (r.costSource() == null ? "" : " (" + r.costSource() + ")");
    }

    static String lines(ResultRow r) {
        return r.insertions() == null && r.deletions() == null ? "-" : "+" + nz(r.insertions()) + "/-" + nz(r.deletions());
    }

    /** Money for a table or a report: four decimals ({@code 0.0100}). */
    static String money(BigDecimal usd) {
        return usd.setScale(4, RoundingMode.HALF_UP).toPlainString();
    }

    /**
     * Money for CSV and JSON: rounded to {@value #FIGURE_DECIMALS} decimals (a millionth of a
     * dollar), trailing zeros dropped, so that a CLI's binary-float estimate ({@code
     * 0.009954000000000003}) reads {@code 0.009954}; meta.json keeps the exact figure.
     *
     * @return the rounded figure, or {@code null} for {@code null}
     */
    static BigDecimal figure(BigDecimal usd) {
        if (usd == null) {
            return null;
        }
        BigDecimal r = usd.setScale(FIGURE_DECIMALS, RoundingMode.HALF_UP).stripTrailingZeros();
        return r.scale() < 0 ? r.setScale(0) : r;
    }

    private static String unmeasured(int n) {
        return n == 0 ? "" : " (" + n + " " + UNMEASURED + ")";
    }

    private static String nz(Object o) {
        return o == null ? "-" : o.toString();
    }

    private static String csvCell(Object o) {
        if (o == null) {
            return "";
        }
        String s = o.toString();
        return s.contains(",") || s.contains("\"") || s.contains("\n") || s.contains("\r")
                ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
    }
}
