package dev.harness4j.bench;

import java.util.List;

/**
 * The report index's list of runs, rendered by the page itself: the runs are one compact
 * JavaScript array and the table shows {@value #PAGE} of them at a time, with previous / next,
 * a text filter and sorting on any column over every run. A report of thousands of runs then
 * opens with a few hundred table cells instead of tens of thousands (issue 16: 5,000 runs open
 * in under 3 s in Chromium; {@code ReportChromiumBenchmark} measures it).
 */
final class RunsTable {
    /** Runs shown per page of the table. */
    static final int PAGE = 100;

    private static final List<String> COLUMNS = List.of("task", "harness", "model", "trial", "outcome", "verify", "duration");

    // a row: [page index, task, harness, model, trial, outcome, verify, duration ms (-1 unmeasured), duration text]
    private static final String SCRIPT = """
            let runsView=RUNS,runsPage=0;const RUNS_PAGE=%d;
            function escH(s){return String(s).replace(/[&<>"]/g,c=>({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;'}[c]));}
            function renderRuns(){const from=runsPage*RUNS_PAGE;
            document.getElementById('runs').tBodies[0].innerHTML=runsView.slice(from,from+RUNS_PAGE).map(r=>'<tr><td><a href="runs/'
            +r[0]+'.html">'+escH(r[1])+'</a></td><td>'+escH(r[2])+'</td><td>'+escH(r[3])+'</td><td class="num">'+r[4]+'</td><td>'
            +escH(r[5])+'</td><td class="'+escH(r[6])+'">'+escH(r[6])+'</td><td class="num">'+escH(r[8])+'</td></tr>').join('');
            document.getElementById('runs-pos').textContent=runsView.length?'runs '+(from+1)+'–'+Math.min(from+RUNS_PAGE,
            runsView.length)+' of '+runsView.length+(runsView.length<RUNS.length?' (filtered from '+RUNS.length+')':''):'no runs';}
            function pageRuns(d){runsPage=Math.min(Math.max(0,Math.ceil(runsView.length/RUNS_PAGE)-1),Math.max(0,runsPage+d));renderRuns();}
            function sortRuns(th,col){const asc=th.dataset.asc!=='1';th.dataset.asc=asc?'1':'0';
            runsView=[...runsView].sort((a,b)=>{const x=a[col],y=b[col];return (x<y?-1:x>y?1:0)*(asc?1:-1);});runsPage=0;renderRuns();}
            function filterRuns(q){q=q.toLowerCase();runsView=q?RUNS.filter(r=>r.slice(1,7).join(' ').toLowerCase().includes(q)):RUNS;
            runsPage=0;renderRuns();}
            renderRuns();
            """.formatted(PAGE);

    private RunsTable() {}

    /** The table, its controls and the script that fills it; rows link to {@code runs/<index>.html}. */
    static void append(StringBuilder sb, List<ResultRow> rows) {
        sb.append("<h2>Runs</h2><p class=\"pager\"><button type=\"button\" onclick=\"pageRuns(-1)\">‹ previous</button> ")
                .append("<span id=\"runs-pos\"></span> <button type=\"button\" onclick=\"pageRuns(1)\">next ›</button> ")
                .append("<input id=\"runs-filter\" type=\"search\" placeholder=\"filter runs\" oninput=\"filterRuns(this.value)\">")
                .append(" Click a column to sort every run.</p><table id=\"runs\"><thead><tr>");
        int[] sortColumn = {1, 2, 3, 4, 5, 6, 7};
        for (int i = 0; i < COLUMNS.size(); i++) {
            sb.append("<th onclick=\"sortRuns(this,").append(sortColumn[i]).append(")\">").append(COLUMNS.get(i)).append("</th>");
        }
        sb.append("</tr></thead><tbody></tbody></table><script>const RUNS=[");
        for (int i = 0; i < rows.size(); i++) {
            ResultRow r = rows.get(i);
            sb.append(i == 0 ? "[" : ",\n[").append(i).append(',');
            str(sb, String.valueOf(r.task())).append(',');
            str(sb, r.harness() + (r.reference() ? " (reference)" : "")).append(',');
            str(sb, String.valueOf(r.model())).append(',').append(r.trial()).append(',');
            str(sb, r.outcome()).append(',');
            str(sb, r.verifyStatus() == null ? "-" : r.verifyStatus()).append(',')
                    .append(r.durationMs() == null ? -1 : r.durationMs()).append(',');
            str(sb, SummaryFormat.duration(r.durationMs())).append(']');
        }
        sb.append("];\n").append(SCRIPT).append("</script>");
    }

    /** A JavaScript string literal that is safe inside an HTML {@code <script>} element. */
    static StringBuilder str(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            switch (ch) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '<', '>', '&', '\u2028', '\u2029' -> sb.append(String.format("\\u%04x", (int) ch));
                default -> {
                    if (ch < 0x20) {
                        sb.append(String.format("\\u%04x", (int) ch));
                    } else {
                        sb.append(ch);
                    }
                }
            }
        }
        return sb.append('"');
    }
}
