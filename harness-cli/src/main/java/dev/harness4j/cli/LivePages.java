package dev.harness4j.cli;

import dev.harness4j.bench.BenchMetrics;
import dev.harness4j.bench.BenchSummary;
import dev.harness4j.bench.ResultRow;
import dev.harness4j.bench.SummaryFormat;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;

/**
 * The HTML of {@code harness4j serve}: the benches, one bench (its live part a fragment the page
 * fetches again when the bench's events say something changed), one run. Server-rendered, with a
 * few lines of plain JavaScript ({@code EventSource}, {@code fetch}); every value escaped.
 */
final class LivePages {
    /** How many finished runs the bench page lists (the static report lists them all). */
    static final int RUNS_SHOWN = 200;
    private static final String STYLE = "<style>body{font:14px system-ui,sans-serif;margin:1.5em}"
            + "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 8px;text-align:left}"
            + "pre{background:#f6f6f6;padding:8px;overflow:auto;max-height:40em}.running{background:#fff3c4}"
            + ".passed,.completed{background:#c8f0c8}.failed,.bailed,.error{background:#f0c8c8}"
            + "button{margin-left:1em}</style>";

    private LivePages() {
    }

    static String esc(Object o) {
        String s = o == null ? "" : o.toString();
        StringBuilder b = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            switch (c) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }

    private static String page(String title, String token, String body) {
        return "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + esc(title) + "</title>" + STYLE
                + "</head><body data-token=\"" + esc(token) + "\"><p><a href=\"/\">benches</a></p>\n" + body
                + "\n<script>function bail(url){fetch(url,{method:'POST',headers:{'X-Harness4j-Token':"
                + "document.body.dataset.token}}).then(r=>r.text()).then(t=>{document.getElementById('bailed')"
                + ".textContent=t;});}\nfunction tick(){const now=Date.now();document.querySelectorAll('[data-since]')"
                + ".forEach(e=>{e.textContent=Math.max(0,Math.round((now-Date.parse(e.dataset.since))/1000))+' s';});}"
                + "\nsetInterval(tick,1000);tick();</script><p id=\"bailed\"></p></body></html>\n";
    }

    /** The benches of the state dir with their status. */
    static String benches(LiveState state, String token) {
        List<LiveState.Entry> entries = state.entries();
        BenchSummary summary = state.summary();
        StringBuilder h = new StringBuilder("<h1>harness4j benches</h1>\n<p>").append(esc(state.where()))
                .append("</p>\n<table id=\"benches\"><tr><th>bench</th><th>status</th><th>queued</th><th>running</th>"
                        + "<th>results</th><th>passed</th></tr>\n");
        for (String id : state.benches(entries, summary)) {
            long queued = entries.stream().filter(e -> e.bench().equals(id) && e.state().equals("queued")).count();
            long running = entries.stream().filter(e -> e.bench().equals(id) && e.state().equals("running")).count();
            List<ResultRow> rows = summary.rows().stream().filter(r -> LiveState.bench(r.task()).equals(id)).toList();
            String status = running > 0 ? "running" : queued > 0 ? "queued" : "finished";
            h.append("<tr><td><a href=\"/bench/").append(esc(id)).append("\">").append(esc(id)).append("</a></td><td class=\"")
                    .append(status).append("\">").append(status).append("</td><td>").append(queued).append("</td><td>")
                    .append(running).append("</td><td>").append(rows.size()).append("</td><td>")
                    .append(rows.stream().filter(ResultRow::passed).count()).append("</td></tr>\n");
        }
        return page("harness4j benches", token, h.append("</table>").toString());
    }

    /** One bench: the frame, whose live part is {@link #benchLive}. */
    static String bench(LiveState state, String id, String token) {
        String body = "<h1>bench " + esc(id) + "</h1>\n<p>" + (state.reportDir(id).isPresent() ? "<a href=\"/report/"
                + esc(id) + "/index.html\">static report</a> · " : "") + "<a href=\"/compare?bench=" + esc(id)
                + "&amp;baseline=\">compare</a>" + state.noBail().map(why -> " · <span id=\"no-bail\">" + esc(why) + "</span>")
                .orElse("<button id=\"bail-bench\" onclick=\"bail('/bail/bench/" + esc(id) + "')\">bail the bench</button>")
                + "</p>\n"
                + "<div id=\"live\">" + benchLive(state, id) + "</div>\n<script>const live=document.getElementById('live');"
                + "const es=new EventSource('/events/bench/" + esc(id) + "');es.addEventListener('change',()=>"
                + "fetch('/bench/" + esc(id) + "/live').then(r=>r.text()).then(t=>{live.innerHTML=t;tick();}));</script>";
        return page("bench " + id, token, body);
    }

    /** The live part of a bench page: queue state, running runs, leaderboard, task grid, finished runs. */
    static String benchLive(LiveState state, String id) {
        List<LiveState.Entry> entries = state.entries(id);
        List<ResultRow> rows = state.summary().rows().stream().filter(r -> LiveState.bench(r.task()).equals(id)).toList();
        Instant now = Instant.now();
        List<LiveState.Entry> running = entries.stream().filter(e -> e.state().equals("running")).toList();
        List<LiveState.Entry> queued = entries.stream().filter(e -> e.state().equals("queued")).toList();
        long paused = queued.stream().filter(e -> e.notBefore() != null && e.notBefore().isAfter(now)).count();
        long retries = entries.stream().filter(e -> e.attempts() > 1).count();
        StringBuilder h = new StringBuilder("<p id=\"queue\">queued ").append(queued.size()).append(" (").append(paused)
                .append(" paused until a retry time) · running ").append(running.size()).append(" · retried ")
                .append(retries).append(" · results ").append(rows.size()).append("</p>\n<h2>Running</h2>\n"
                        + "<table id=\"running\"><tr><th>run</th><th>task</th><th>harness</th><th>model</th><th>trial</th>"
                        + "<th>attempt</th><th>elapsed</th><th></th></tr>\n");
        for (LiveState.Entry e : running) {
            h.append("<tr class=\"running\"><td><a href=\"/run/").append(esc(e.runId())).append("\">").append(esc(e.runId()))
                    .append("</a></td><td>").append(esc(e.task())).append("</td><td>").append(esc(e.harness()))
                    .append("</td><td>").append(esc(e.model())).append("</td><td>").append(e.trial()).append("</td><td>")
                    .append(e.attempts()).append("</td><td data-since=\"").append(esc(e.updatedAt())).append("\"></td>")
                    .append("<td>").append(state.noBail().isPresent() ? esc(e.worker() == null ? "" : "on " + e.worker())
                            : "<button onclick=\"bail('/bail/run/" + esc(e.runId()) + "')\">bail</button>")
                    .append("</td></tr>\n");
        }
        h.append("</table>\n");
        if (!rows.isEmpty()) {
            BenchMetrics m = BenchMetrics.of(rows);
            h.append("<h2>Leaderboard</h2>\n<pre id=\"leaderboard\">").append(esc(SummaryFormat.leaderboard(m)))
                    .append("</pre>\n<h2>Task grid</h2>\n<pre id=\"grid\">").append(esc(SummaryFormat.taskGrid(m)))
                    .append("</pre>\n");
        }
        h.append("<h2>Finished runs</h2>\n<table id=\"finished\"><tr><th>run</th><th>task</th><th>harness</th>"
                + "<th>model</th><th>trial</th><th>outcome</th><th>verify</th><th>duration</th></tr>\n");
        rows.stream().sorted(Comparator.comparing(ResultRow::dir).reversed()).limit(RUNS_SHOWN).forEach(r -> h
                .append("<tr><td><a href=\"/run/").append(esc(LiveState.runId(r))).append("\">").append(esc(LiveState.runId(r)))
                .append("</a></td><td>").append(esc(r.task())).append("</td><td>").append(esc(r.harness())).append("</td><td>")
                .append(esc(r.model())).append("</td><td>").append(r.trial()).append("</td><td class=\"").append(esc(r.outcome()))
                .append("\">").append(esc(r.outcome())).append("</td><td class=\"").append(esc(r.verifyStatus())).append("\">")
                .append(esc(r.verifyStatus())).append("</td><td>").append(esc(duration(r.durationMs())))
                .append("</td></tr>\n"));
        h.append("</table>\n");
        if (rows.size() > RUNS_SHOWN) {
            h.append("<p>the latest ").append(RUNS_SHOWN).append(" of ").append(rows.size())
                    .append(" runs; the static report lists them all</p>\n");
        }
        return h.toString();
    }

    /** The comparison of two benches (the {@code bench compare} text). */
    static String compare(String bench, String baseline, String text, String token) {
        return page("compare " + bench, token, "<h1>bench " + esc(bench) + " compared with " + esc(baseline)
                + "</h1>\n<form action=\"/compare\"><input name=\"bench\" value=\"" + esc(bench) + "\"> with <input"
                + " name=\"baseline\" value=\"" + esc(baseline) + "\"><button>compare</button></form>\n<pre id=\"compare\">"
                + esc(text) + "</pre>");
    }

    static String duration(Long ms) {
        return ms == null ? "-" : String.format(java.util.Locale.ROOT, "%.1fs", ms / 1000.0);
    }

    static String run(String runId, String token, String body) {
        return page("run " + runId, token, body);
    }
}
