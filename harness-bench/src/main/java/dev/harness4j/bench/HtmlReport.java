package dev.harness4j.bench;

import dev.harness4j.api.HarnessException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * A bench report as one self-contained HTML file: the summary table, totals, unreadable results,
 * and horizontal bar charts (inline SVG) of duration, tokens and cost per combo. No script, no
 * external stylesheet, font or image: it opens offline from disk. A combo whose figure was not
 * measured gets the word {@code unmeasured} instead of a bar. Pure rendering plus an atomic write.
 *
 * <pre>{@code
 * Path report = HtmlReport.write(BenchSummary.read(stateDir), stateDir.resolve("report.html"));
 * }</pre>
 */
public final class HtmlReport {
    private static final int WIDTH = 960;
    private static final int LABEL = 300;
    private static final int BARS = 520;
    private static final int ROW = 26;

    private static final String CSS = """
            body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:24px;color:#1d2330;background:#fff}
            h1{font-size:22px;margin:0 0 4px} h2{font-size:17px;margin:28px 0 8px}
            p.totals{color:#444;margin:4px 0 16px}
            table{border-collapse:collapse;font-size:13px} th,td{border-bottom:1px solid #e3e6ec;padding:5px 9px;text-align:left;white-space:nowrap}
            th{background:#f4f6fa} td.num{text-align:right;font-variant-numeric:tabular-nums}
            .completed{color:#17803d;font-weight:600} .no-op{color:#7a6a00} .failed{color:#b42318;font-weight:600}
            .unmeasured{color:#8a8f98;font-style:italic}
            svg.chart{display:block;border:1px solid #e3e6ec;border-radius:6px;background:#fbfcfe}
            svg.chart text{font-size:12px;fill:#1d2330} svg.chart text.none{fill:#8a8f98;font-style:italic}
            rect.bar{fill:#3b6fd8} rect.bar.in{fill:#3b6fd8} rect.bar.out{fill:#f29d38} rect.bar.cost{fill:#2f9e6f}
            ul.problems{color:#b42318;font-size:13px}
            """;

    private HtmlReport() {}

    /** Writes the report (temp file + rename) and returns its absolute path. */
    public static Path write(BenchSummary summary, Path file) {
        Path target = file.toAbsolutePath();
        Path tmp = target.resolveSibling("." + target.getFileName() + ".tmp");
        try {
            Files.createDirectories(target.getParent());
            Files.writeString(tmp, render(summary), StandardCharsets.UTF_8);
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
            return target;
        } catch (IOException e) {
            throw new HarnessException("cannot write the bench report " + target + ": " + e.getMessage(), e);
        }
    }

    /** The whole HTML document. */
    public static String render(BenchSummary s) {
        StringBuilder h = new StringBuilder(8192 + s.rows().size() * 600);
        h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
                .append("<title>harness4j bench report</title><style>").append(CSS).append("</style></head><body>\n")
                .append("<h1>harness4j bench report</h1>\n<p class=\"totals\">")
                .append(esc(SummaryFormat.totalsLine(s.totals()))).append("</p>\n");
        table(h, s.rows());
        List<ResultRow> rows = s.rows();
        h.append("<h2>Duration</h2>\n");
        chart(h, "duration", rows, r -> r.durationMs() == null ? null : r.durationMs() / 1000.0, null,
                v -> String.format(Locale.ROOT, "%.1f s", v));
        h.append("<h2>Tokens (input + output)</h2>\n");
        chart(h, "tokens", rows, r -> r.tokensIn() == null ? null : r.tokensIn().doubleValue(),
                r -> r.tokensOut() == null ? null : r.tokensOut().doubleValue(), v -> String.format(Locale.ROOT, "%,.0f", v));
        h.append("<h2>Cost (USD)</h2>\n");
        chart(h, "cost", rows, r -> r.costUsd() == null ? null : r.costUsd().doubleValue(), null,
                v -> String.format(Locale.ROOT, "$%.4f", v));
        if (!s.problems().isEmpty()) {
            h.append("<h2>Unreadable results</h2>\n<ul class=\"problems\">\n");
            for (MetaProblem p : s.problems()) {
                h.append("<li>").append(esc(p.kind().wireName())).append(": results/").append(esc(p.dir()))
                        .append(" (").append(esc(p.detail())).append(")</li>\n");
            }
            h.append("</ul>\n");
        }
        return h.append("</body></html>\n").toString();
    }

    private static void table(StringBuilder h, List<ResultRow> rows) {
        h.append("<table id=\"results\"><thead><tr><th>harness</th><th>model</th><th>outcome</th><th>duration</th>")
                .append("<th>files</th><th>+/-</th><th>tokens in/out</th><th>cost</th><th>served</th><th>branch</th></tr></thead><tbody>\n");
        for (ResultRow r : rows) {
            String cls = r.outcome().equals("completed") || r.outcome().equals("no-op") ? r.outcome() : "failed";
            h.append("<tr><td>").append(esc(r.harness())).append("</td><td>").append(esc(nz(r.model())))
                    .append("</td><td class=\"").append(cls).append("\" title=\"").append(esc(nz(r.reason()))).append("\">")
                    .append(esc(r.outcome())).append("</td><td class=\"num\">").append(esc(SummaryFormat.duration(r.durationMs())))
                    .append("</td><td class=\"num\">").append(esc(nz(r.filesChanged()))).append("</td><td class=\"num\">")
                    .append(esc(SummaryFormat.lines(r))).append("</td>").append(cell(SummaryFormat.tokens(r)))
                    .append(cell(SummaryFormat.cost(r))).append("<td>").append(esc(nz(r.servedVerdict())))
                    .append("</td><td>").append(esc(r.branch() == null ? "-" : r.branch())).append("</td></tr>\n");
        }
        h.append("</tbody></table>\n");
    }

    /** A horizontal bar chart; {@code second} (optional) stacks a second segment after the first. */
    private static void chart(StringBuilder h, String metric, List<ResultRow> rows, Function<ResultRow, Double> first,
            Function<ResultRow, Double> second, Function<Double, String> label) {
        double max = 0;
        for (ResultRow r : rows) {
            max = Math.max(max, total(first.apply(r), second == null ? null : second.apply(r)));
        }
        int height = Math.max(1, rows.size()) * ROW + 12;
        h.append("<svg class=\"chart\" id=\"chart-").append(metric).append("\" data-metric=\"").append(metric)
                .append("\" width=\"").append(WIDTH).append("\" height=\"")
                .append(height).append("\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(height).append("\">\n");
        int y = 6;
        for (ResultRow r : rows) {
            Double a = first.apply(r);
            Double b = second == null ? null : second.apply(r);
            h.append("<text x=\"8\" y=\"").append(y + 17).append("\">").append(esc(clip(r.label(), 44))).append("</text>");
            if (a == null && b == null) {
                h.append("<text class=\"none\" x=\"").append(LABEL).append("\" y=\"").append(y + 17)
                        .append("\">").append(SummaryFormat.UNMEASURED).append("</text>\n");
                y += ROW;
                continue;
            }
            int x = LABEL;
            int wa = width(a, max);
            h.append(rect(metric.equals("tokens") ? "bar in" : metric.equals("cost") ? "bar cost" : "bar", x, y + 4, wa,
                    r.label() + ": " + (a == null ? SummaryFormat.UNMEASURED : label.apply(a))));
            x += wa;
            if (second != null) {
                int wb = width(b, max);
                h.append(rect("bar out", x, y + 4, wb, r.label() + " output: "
                        + (b == null ? SummaryFormat.UNMEASURED : label.apply(b))));
                x += wb;
            }
            String value = second == null ? label.apply(a)
                    : (a == null ? "?" : label.apply(a)) + " + " + (b == null ? "?" : label.apply(b));
            h.append("<text x=\"").append(x + 6).append("\" y=\"").append(y + 17).append("\">").append(esc(value))
                    .append("</text>\n");
            y += ROW;
        }
        h.append("</svg>\n");
    }

    private static String rect(String cls, int x, int y, int w, String title) {
        return "<rect class=\"" + cls + "\" x=\"" + x + "\" y=\"" + y + "\" width=\"" + w + "\" height=\"" + (ROW - 8)
                + "\"><title>" + esc(title) + "</title></rect>";
    }

    private static int width(Double v, double max) {
        if (v == null || max <= 0) {
            return 0;
        }
        return (int) Math.max(1, Math.round(v / max * BARS));
    }

    private static double total(Double a, Double b) {
        return (a == null ? 0 : a) + (b == null ? 0 : b);
    }

    private static String cell(String text) {
        return SummaryFormat.UNMEASURED.equals(text) ? "<td class=\"unmeasured\">" + text + "</td>"
                : "<td class=\"num\">" + esc(text) + "</td>";
    }

    private static String clip(String s, int n) {
        return s.length() <= n ? s : s.substring(0, n - 1) + "…";
    }

    private static String nz(Object o) {
        return o == null ? "-" : o.toString();
    }

    static String esc(String s) {
        StringBuilder out = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}
