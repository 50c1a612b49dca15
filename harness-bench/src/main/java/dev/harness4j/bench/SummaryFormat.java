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
 * {@code unmeasured} (text), an empty cell (CSV) or {@code null} (JSON), never as 0. Pure
 * functions.
 */
public final class SummaryFormat {
    private static final com.fasterxml.jackson.databind.ObjectMapper MAPPER = new com.fasterxml.jackson.databind.ObjectMapper();

    /** The word shown for a figure nobody measured. */
    public static final String UNMEASURED = "unmeasured";

    private static final String[] HEADER = {"harness", "model", "outcome", "duration", "files", "+/-", "tokens in/out",
        "cost", "served", "branch"};

    private SummaryFormat() {}

    /** A fixed-width table, one line per result, then totals and any unreadable results. */
    public static String table(BenchSummary s) {
        List<String[]> lines = new ArrayList<>();
        lines.add(HEADER);
        for (ResultRow r : s.rows()) {
            lines.add(new String[] {r.harness(), nz(r.model()), r.outcome(), duration(r.durationMs()),
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

    /** One header line and one line per result; unmeasured cells are empty. */
    public static String csv(BenchSummary s) {
        StringBuilder sb = new StringBuilder(
                "dir,harness,provider,model,task,outcome,reason,duration_ms,files_changed,insertions,deletions,"
                        + "tokens_in,tokens_out,token_source,cost_usd,cost_source,served_verdict,branch\n");
        for (ResultRow r : s.rows()) {
            Object[] cells = {r.dir(), r.harness(), r.provider(), r.model(), r.task(), r.outcome(), r.reason(),
                r.durationMs(), r.filesChanged(), r.insertions(), r.deletions(), r.tokensIn(), r.tokensOut(),
                r.tokenSource(), r.costUsd() == null ? null : r.costUsd().toPlainString(), r.costSource(),
                r.servedVerdict(), r.branch()};
            for (int i = 0; i < cells.length; i++) {
                sb.append(csvCell(cells[i])).append(i + 1 < cells.length ? "," : "\n");
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
            n.put("cost_usd", r.costUsd());
            n.put("cost_source", r.costSource());
            n.put("served_verdict", r.servedVerdict());
            n.put("branch", r.branch());
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
        tn.put("cost_usd", t.costUsd());
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

    static String money(BigDecimal usd) {
        return usd.setScale(4, RoundingMode.HALF_UP).toPlainString();
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
