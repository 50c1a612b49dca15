package dev.harness4j.bench;

import dev.harness4j.api.HarnessException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A bench report as a directory that opens offline from {@code file://} (no CDN, no network):
 * {@code index.html} with a sortable leaderboard (pass rate, interval, pass@k, cost per pass,
 * median time), a task × combo grid coloured by pass rate whose cells link to their runs, the list
 * of runs (paged, filtered and sorted by the page itself: {@link RunsTable}), and the comparison
 * with a baseline when given; and {@code runs/<n>.html}, one page per run, with its figures, the
 * diff coloured per file, the verify log, the transcript and the events as a timeline ({@link
 * RunTimeline}). Files larger than {@value #MAX_FILE} bytes are cut, saying so.
 *
 * <pre>{@code
 * BenchSummary s = BenchSummary.read(stateDir);
 * Path index = BenchReport.write(runner.results().resultsDir(), s.rows(), BenchMetrics.of(s), null, stateDir.resolve("report"));
 * }</pre>
 */
public final class BenchReport {
    /** How much of one run file a run page shows: 256 KiB. */
    public static final int MAX_FILE = 256 * 1024;

    private static final String CSS = """
            body{font-family:system-ui,sans-serif;margin:24px;color:#1d2330}h1{font-size:22px}h2{font-size:17px;margin-top:28px}
            table{border-collapse:collapse;font-size:13px}th,td{border-bottom:1px solid #e3e6ec;padding:4px 8px;text-align:left;white-space:nowrap}
            th{background:#f4f6fa;cursor:pointer}td.num{text-align:right;font-variant-numeric:tabular-nums}
            td.cell{text-align:center;font-weight:600}td.cell a{color:#1d2330;text-decoration:none;display:block}
            .passed{color:#17803d;font-weight:600}.failed,.verifier-error,.verifier-timeout,.error{color:#b42318;font-weight:600}
            .unmeasured{color:#8a8f98;font-style:italic}pre{background:#f7f8fa;padding:8px;font-size:12px;overflow:auto;max-height:480px}
            pre.diff span.add{color:#17803d}pre.diff span.del{color:#b42318}pre.diff span.hunk{color:#6b4fbb}
            h3.file{font-family:monospace;font-size:13px;margin:12px 0 2px}
            """;
    private static final String SORT = """
            function sortBy(th){const t=th.closest('table'),i=[...th.parentNode.children].indexOf(th),
            rows=[...t.tBodies[0].rows],asc=th.dataset.asc!=='1';th.dataset.asc=asc?'1':'0';
            const v=r=>{const c=r.cells[i],s=c.dataset.v!==undefined?c.dataset.v:c.textContent;const n=parseFloat(s);return isNaN(n)?s:n;};
            rows.sort((a,b)=>{const x=v(a),y=v(b);return (x<y?-1:x>y?1:0)*(asc?1:-1);});rows.forEach(r=>t.tBodies[0].appendChild(r));}
            """;

    private BenchReport() {}

    /**
     * Writes the report into {@code dir} (created; pages already there are replaced) and returns
     * the path of its {@code index.html}.
     *
     * @param resultsDir the {@code results/} dir the rows' {@link ResultRow#dir()} are relative to
     * @param comparison the comparison with a baseline, or {@code null}
     */
    public static Path write(Path resultsDir, List<ResultRow> rows, BenchMetrics metrics, BenchComparison comparison,
            Path dir) {
        return write(resultsDir, rows, metrics, comparison, null, dir);
    }

    /**
     * Writes the report of a {@link SuiteCheck}'s runs, its findings first (which task's verifier
     * accepts the untouched repository, which reference solution does not pass, ...).
     *
     * @param check the check whose runs {@code rows} are, or {@code null} for none
     */
    public static Path write(Path resultsDir, List<ResultRow> rows, BenchMetrics metrics, BenchComparison comparison,
            SuiteCheckReport check, Path dir) {
        try {
            Path runs = Files.createDirectories(dir.resolve("runs"));
            Map<String, List<Integer>> byCell = new LinkedHashMap<>();
            for (int i = 0; i < rows.size(); i++) {
                ResultRow r = rows.get(i);
                byCell.computeIfAbsent(r.task() + "\u0000" + r.label(), k -> new ArrayList<>()).add(i);
            }
            java.util.stream.IntStream.range(0, rows.size()).parallel().forEach(i -> { // reading and writing files: in parallel
                ResultRow r = rows.get(i);
                try {
                    Files.writeString(runs.resolve(i + ".html"), runPage(resultsDir.resolve(r.dir()), r), StandardCharsets.UTF_8);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            Path index = dir.resolve("index.html");
            Files.writeString(index, index(rows, metrics, comparison, check, byCell), StandardCharsets.UTF_8);
            return index.toAbsolutePath();
        } catch (IOException e) {
            throw new HarnessException("cannot write the bench report into " + dir + ": " + e.getMessage(), e);
        } catch (java.io.UncheckedIOException e) {
            throw new HarnessException("cannot write the bench report into " + dir + ": " + e.getCause().getMessage(), e);
        }
    }

    private static String index(List<ResultRow> rows, BenchMetrics m, BenchComparison c, SuiteCheckReport check,
            Map<String, List<Integer>> byCell) {
        StringBuilder sb = head("bench report");
        sb.append("<h1>Bench report</h1><p>").append(rows.size()).append(" runs · ").append(m.leaderboard().size())
                .append(" combos · ").append(m.tasks().size()).append(" tasks. Click a column to sort.</p>");
        if (check != null) {
            sb.append("<h2>Suite check</h2><ul id=\"findings\">");
            check.findings().forEach(f -> sb.append("<li class=\"").append(f.kind().broken() ? "failed" : "warning")
                    .append("\">").append(esc(f.text())).append("</li>"));
            sb.append(check.findings().isEmpty() ? "<li class=\"passed\">no findings</li>" : "").append("</ul><pre id=\"check\">")
                    .append(esc(check.text())).append("</pre>");
        }
        int maxK = m.leaderboard().stream().mapToInt(x -> x.metrics().passAtK().size()).max().orElse(0);
        sb.append("<h2>Leaderboard</h2><table id=\"leaderboard\"><thead><tr>");
        List<String> cols = new ArrayList<>(List.of("#", "harness", "model", "passed", "pass rate", "95% CI"));
        List<Integer> ks = SummaryFormat.shownK(maxK);
        ks.forEach(k -> cols.add("pass@" + k));
        boolean named = RewardText.any(m.leaderboard());
        cols.add("mean reward");
        if (named) {
            cols.add("rewards per metric");
        }
        cols.addAll(List.of("median time", "tokens in/out", "cost", "cost per pass", "not passed"));
        cols.forEach(h -> sb.append("<th onclick=\"sortBy(this)\">").append(esc(h)).append("</th>"));
        sb.append("</tr></thead><tbody>");
        int rank = 1;
        for (BenchMetrics.ComboMetrics x : m.leaderboard()) {
            Metrics t = x.metrics();
            sb.append("<tr>").append(num(rank, String.valueOf(rank++))).append(td(x.harness())).append(td(String.valueOf(x.model())))
                    .append(num(t.passed(), t.passed() + "/" + t.runs())).append(num(t.passRate(), SummaryFormat.percent(t.passRate())))
                    .append(num(t.passRateLow(), "[" + SummaryFormat.percent(t.passRateLow()) + ", "
                            + SummaryFormat.percent(t.passRateHigh()) + "]"));
            for (int k : ks) {
                Double v = t.passAtK().get(k);
                sb.append(v == null ? num(-1, "-") : num(v, String.format(Locale.ROOT, "%.2f", v)));
            }
            sb.append(t.meanReward() == null ? num(-1, "-") : num(t.meanReward(), String.format(Locale.ROOT, "%.2f (%d measured)",
                    t.meanReward(), t.rewardMeasured())));
            if (named) {
                sb.append(td(RewardText.means(t.rewards(), t.runs())));
            }
            sb.append(num(t.medianDurationMs() == null ? -1 : t.medianDurationMs(), SummaryFormat.duration(t.medianDurationMs())));
            sb.append(t.tokensIn() == null ? unmeasured() : num(t.tokensIn(), t.tokensIn() + "/" + t.tokensOut()
                    + " (" + t.tokensMeasured() + "/" + t.runs() + " measured)"));
            sb.append(t.costUsd() == null ? unmeasured() : num(t.costUsd().doubleValue(), "$" + SummaryFormat.money(t.costUsd())
                    + " (" + t.costMeasured() + "/" + t.runs() + " measured; " + String.join(",", t.costSources()) + ")"));
            sb.append(t.costPerPass() == null ? num(1e9, "-") : num(t.costPerPass().doubleValue(), "$"
                    + SummaryFormat.money(t.costPerPass())));
            sb.append(td(t.errorClasses().isEmpty() ? "-" : t.errorClasses().toString())).append("</tr>");
        }
        sb.append("</tbody></table>");
        if (!m.references().isEmpty()) { // nop and oracle check the verifiers; never ranked
            sb.append("<h2>References (not ranked: they check the verifiers)</h2><table id=\"references\"><thead><tr>"
                    + "<th>harness</th><th>passed</th><th>rewards per metric</th><th>not passed</th></tr></thead><tbody>");
            for (BenchMetrics.ComboMetrics x : m.references()) {
                Metrics t = x.metrics();
                sb.append("<tr>").append(td(x.harness())).append(num(t.passed(), t.passed() + "/" + t.runs()))
                        .append(td(RewardText.means(t.rewards(), t.runs())))
                        .append(td(t.errorClasses().isEmpty() ? "-" : t.errorClasses().toString())).append("</tr>");
            }
            sb.append("</tbody></table>");
        }
        List<String> combos = m.leaderboard().stream().map(BenchMetrics.ComboMetrics::label).toList();
        sb.append("<h2>Tasks × combos</h2><table id=\"grid\"><thead><tr><th>task</th>");
        combos.forEach(x -> sb.append("<th>").append(esc(x)).append("</th>"));
        sb.append("</tr></thead><tbody>");
        m.cells().forEach((task, row) -> {
            sb.append("<tr>").append(td(task));
            for (String x : combos) {
                Metrics t = row.get(x);
                if (t == null) {
                    sb.append("<td class=\"cell\">-</td>");
                    continue;
                }
                List<Integer> runs = byCell.getOrDefault(task + "\u0000" + x, List.of());
                String href = runs.isEmpty() ? "#" : "runs/" + runs.get(0) + ".html";
                sb.append("<td class=\"cell\" style=\"background:hsl(").append(Math.round(120 * t.passRate()))
                        .append(",65%,82%)\"><a href=\"").append(href).append("\" title=\"").append(runs.size())
                        .append(" runs\">").append(t.passed()).append('/').append(t.runs()).append("</a></td>");
            }
            sb.append("</tr>");
        });
        sb.append("</tbody></table>");
        if (c != null) {
            sb.append("<h2>Compared with the baseline</h2><pre id=\"compare\">").append(esc(SummaryFormat.compare(c)))
                    .append("</pre>");
        }
        RunsTable.append(sb, rows);
        sb.append("<script>").append(SORT).append("</script></body></html>\n");
        return sb.toString();
    }

    private static String runPage(Path dir, ResultRow r) throws IOException {
        StringBuilder sb = head(r.task() + " · " + r.label() + " · trial " + r.trial());
        sb.append("<p><a href=\"../index.html\">← report</a></p><h1>").append(esc(r.task() + " · " + r.label()))
                .append(" · trial ").append(r.trial()).append("</h1><table id=\"figures\"><tbody>");
        row(sb, "outcome", r.outcome() + (r.reason() == null ? "" : " (" + r.reason() + ")"));
        row(sb, "verify", r.verifyStatus() == null ? "-" : r.verifyStatus()
                + (r.reward() == null ? "" : String.format(Locale.ROOT, ", reward %.2f", r.reward())));
        if (!r.rewards().isEmpty()) {
            sb.append("<tr><th>rewards</th><td><table id=\"rewards\"><tbody>");
            r.rewards().forEach((name, v) -> sb.append("<tr><td>").append(esc(name)).append("</td>")
                    .append(num(v, RewardText.two(v))).append("</tr>"));
            sb.append("</tbody></table></td></tr>");
        }
        row(sb, "duration", SummaryFormat.duration(r.durationMs()));
        row(sb, "tokens in/out", SummaryFormat.tokens(r));
        row(sb, "cost", SummaryFormat.cost(r));
        row(sb, "served model", String.valueOf(r.servedVerdict()));
        row(sb, "changes", SummaryFormat.lines(r) + " in " + (r.filesChanged() == null ? "-" : r.filesChanged()) + " files");
        row(sb, "result dir", dir.toString());
        sb.append("</tbody></table><h2>Diff</h2><div id=\"diff\">");
        String diff = read(dir.resolve("diff.patch"));
        if (diff.isBlank()) {
            sb.append("<p>no changes</p>");
        }
        for (String file : diff.split("(?m)^(?=diff --git )")) {
            if (file.isBlank()) {
                continue;
            }
            String first = file.lines().findFirst().orElse("");
            sb.append("<h3 class=\"file\">").append(esc(first.replaceFirst("^diff --git a/(\\S+) b/.*$", "$1"))).append("</h3><pre class=\"diff\">");
            file.lines().forEach(l -> {
                String cls = l.startsWith("+") && !l.startsWith("+++") ? "add" : l.startsWith("-") && !l.startsWith("---") ? "del"
                        : l.startsWith("@@") ? "hunk" : null;
                sb.append(cls == null ? esc(l) : "<span class=\"" + cls + "\">" + esc(l) + "</span>").append('\n');
            });
            sb.append("</pre>");
        }
        sb.append("</div><h2>Verify log</h2><pre id=\"verify-log\">").append(esc(orNone(read(dir.resolve("verify.log")))))
                .append("</pre><h2>Transcript</h2><pre id=\"transcript\">").append(esc(orNone(read(dir.resolve("transcript.log")))))
                .append("</pre>");
        RunTimeline.append(sb, dir);
        sb.append("<h2>Trajectory</h2><div id=\"trajectory\">");
        TrajectoryHtml.append(sb, dir);
        sb.append("</div>");
        return sb.append("</body></html>\n").toString();
    }

    private static StringBuilder head(String title) {
        return new StringBuilder(8192).append("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>")
                .append(esc(title)).append("</title><style>").append(CSS).append(RunTimeline.CSS).append(TrajectoryHtml.CSS).append("</style></head><body>");
    }

    private static void row(StringBuilder sb, String k, String v) {
        sb.append("<tr><th>").append(esc(k)).append("</th><td>").append(esc(v)).append("</td></tr>");
    }

    private static String td(String s) {
        return "<td>" + esc(s) + "</td>";
    }

    private static String num(double sortKey, String text) {
        return "<td class=\"num\" data-v=\"" + sortKey + "\">" + esc(text) + "</td>";
    }

    private static String unmeasured() {
        return "<td class=\"unmeasured\" data-v=\"-1\">" + SummaryFormat.UNMEASURED + "</td>";
    }

    private static String orNone(String s) {
        return s.isEmpty() ? "(none)" : s;
    }

    /** Up to {@link #MAX_FILE} bytes of a file as UTF-8; empty when it is missing. */
    private static String read(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            byte[] b = in.readNBytes(MAX_FILE + 1);
            String s = new String(b, 0, Math.min(b.length, MAX_FILE), StandardCharsets.UTF_8);
            return b.length > MAX_FILE ? s + "\n[cut at " + MAX_FILE + " bytes; the whole file is in the result dir]" : s;
        } catch (NoSuchFileException e) {
            return "";
        }
    }

    static String esc(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            switch (ch) {
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '&' -> sb.append("&amp;");
                case '"' -> sb.append("&quot;");
                default -> sb.append(ch);
            }
        }
        return sb.toString();
    }
}
