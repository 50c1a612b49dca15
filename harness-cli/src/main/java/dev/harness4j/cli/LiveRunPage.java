package dev.harness4j.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * One run's page in {@code harness4j serve}: while it runs, its output as it is written ({@code
 * runs/<run id>/io/stdout.log} and {@code stderr.log}, streamed by {@link #tail}) and its model
 * requests and tokens so far ({@code io/requests.jsonl}, the meter's records) against its budget;
 * and its trajectory steps so far ({@link LiveSteps}); once it has a result, what the result
 * directory holds: outcome, tokens and cost, diff, verify log, timeline, trajectory steps and
 * transcript.
 */
final class LiveRunPage {
    /** The most of one file a page shows: 256 KiB. */
    static final int MAX_FILE = 256 * 1024;
    private static final ObjectMapper JSON = new ObjectMapper();

    private LiveRunPage() {
    }

    static String render(LiveState state, String runId, String token) {
        Optional<Path> result = state.resultDir(runId);
        Optional<LiveState.Entry> entry = state.entries().stream().filter(e -> runId.equals(e.runId())).findFirst();
        StringBuilder h = new StringBuilder("<h1>run ").append(LivePages.esc(runId)).append("</h1>\n");
        entry.ifPresent(e -> h.append("<p>bench <a href=\"/bench/").append(LivePages.esc(e.bench())).append("\">")
                .append(LivePages.esc(e.bench())).append("</a> · task ").append(LivePages.esc(e.task())).append(" · ")
                .append(LivePages.esc(e.harness())).append(" / ").append(LivePages.esc(e.model())).append(" · trial ")
                .append(e.trial()).append("</p>\n"));
        if (result.isPresent()) {
            finished(h, result.get());
        } else {
            running(h, state, runId, entry.orElse(null));
        }
        return LivePages.run(runId, token, h.toString());
    }

    /** A run without a result: its status, bail button, and what this machine can follow of it. */
    private static void running(StringBuilder h, LiveState state, String runId, LiveState.Entry entry) {
        String id = LivePages.esc(runId);
        boolean running = entry != null && entry.state().equals("running");
        h.append("<p id=\"status\" class=\"running\">").append(running ? "running" : "not running")
                .append(entry != null && entry.worker() != null ? " on " + LivePages.esc(entry.worker()) : "")
                .append(" · elapsed <span data-since=\"").append(LivePages.esc(entry == null ? null : entry.updatedAt()))
                .append("\"></span>").append(state.noBail().isPresent() ? "" : "<button id=\"bail-run\" onclick=\"bail("
                        + "'/bail/run/" + id + "')\">bail</button>").append("</p>\n");
        Optional<Path> io = state.liveIo(runId);
        if (io.isEmpty()) {
            h.append("<p id=\"meter\">its output, trajectory and meter are on the worker's machine; this page shows"
                    + " its result once the worker records it</p>\n<script>const es=new EventSource('/events/run/")
                    .append(id).append("');es.addEventListener('done',()=>{es.close();location.reload();});</script>\n");
            return;
        }
        h.append("<p id=\"meter\">").append(LivePages.esc(meter(io.get(), entry))).append("</p>\n<h2>Trajectory so far</h2>\n"
                + "<ol id=\"steps\"></ol>\n<h2>Output</h2>\n<pre id=\"transcript\"></pre>\n"
                + "<script>const tr=document.getElementById('transcript');const es=new EventSource('/events/run/")
                .append(id).append("');es.addEventListener('line',m=>{const d=JSON.parse(m.data);"
                        + "const s=document.createElement('span');s.className='line '+d.stream;s.textContent=d.text+'\\n';"
                        + "tr.appendChild(s);});es.addEventListener('steps',m=>{const ol=document.getElementById('steps');"
                        + "ol.replaceChildren(...JSON.parse(m.data).steps.map(t=>{const li=document.createElement('li');"
                        + "li.textContent=t;return li;}));});es.addEventListener('meter',m=>{document.getElementById('meter')"
                        + ".textContent=m.data;});es.addEventListener('done',()=>{es.close();location.reload();});</script>\n");
    }

    private static void finished(StringBuilder h, Path dir) {
        JsonNode m;
        try {
            m = JSON.readTree(dir.resolve("meta.json").toFile());
        } catch (IOException e) {
            m = JSON.createObjectNode();
        }
        String outcome = m.path("outcome").asText("unknown");
        h.append("<p id=\"status\" class=\"").append(LivePages.esc(outcome)).append("\">").append(LivePages.esc(outcome))
                .append(m.hasNonNull("reason") ? " (" + LivePages.esc(m.get("reason").asText()) + ")" : "")
                .append(" · duration ").append(LivePages.duration(m.hasNonNull("duration_ms") ? m.get("duration_ms").asLong() : null))
                .append(" · tokens ").append(LivePages.esc(measured(m.path("tokens").path("input")))).append(" in, ")
                .append(LivePages.esc(measured(m.path("tokens").path("output")))).append(" out · cost ")
                .append(LivePages.esc(m.path("cost").hasNonNull("usd") ? "$" + m.path("cost").get("usd").asText() : "unmeasured"))
                .append("</p>\n");
        section(h, "diff", "Diff", dir.resolve("diff.patch"));
        section(h, "verify", "Verify log", dir.resolve("verify.log"));
        try {
            h.append(dev.harness4j.bench.RunTimeline.html(dir)).append('\n');
        } catch (IOException e) {
            h.append("<p>no timeline: ").append(LivePages.esc(e.getMessage())).append("</p>\n");
        }
        try {
            JsonNode t = JSON.readTree(dir.resolve("trajectory.json").toFile());
            h.append("<h2>Trajectory</h2>\n<ol id=\"trajectory\">");
            for (JsonNode s : t.path("steps")) {
                h.append("<li>").append(LivePages.esc(s.path("source").asText())).append(": ")
                        .append(LivePages.esc(clip(s.path("message").asText(), 2000)));
                s.path("tool_calls").forEach(c -> h.append(" <code>").append(LivePages.esc(c.path("function_name").asText()))
                        .append("</code>"));
                h.append("</li>");
            }
            h.append("</ol>\n");
        } catch (IOException e) {
            // no trajectory for this run
        }
        section(h, "transcript", "Transcript", dir.resolve("transcript.log"));
    }

    private static String measured(JsonNode n) {
        return n.isMissingNode() || n.isNull() ? "unmeasured" : n.asText();
    }

    private static void section(StringBuilder h, String id, String title, Path file) {
        String text = head(file);
        if (text != null && !text.isBlank()) {
            h.append("<h2>").append(title).append("</h2>\n<pre id=\"").append(id).append("\">").append(LivePages.esc(text))
                    .append("</pre>\n");
        }
    }

    private static String head(Path file) {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
            byte[] b = new byte[(int) Math.min(f.length(), MAX_FILE)];
            f.readFully(b);
            return new String(b, StandardCharsets.UTF_8) + (f.length() > MAX_FILE ? "\n… (cut at 256 KiB)" : "");
        } catch (IOException e) {
            return null;
        }
    }

    private static String clip(String s, int n) {
        return s.length() <= n ? s : s.substring(0, n) + "…";
    }

    /**
     * The model requests and tokens so far, from the meter's records ({@code usage.input}, {@code
     * usage.output} of each measured model request, {@code cost_usd} of each priced one), with the
     * run's budget. Tokens or cost no record measured are "unmeasured", never 0.
     */
    static String meter(Path io, LiveState.Entry entry) {
        long requests = 0;
        long measured = 0;
        long in = 0;
        long out = 0;
        long priced = 0;
        java.math.BigDecimal cost = java.math.BigDecimal.ZERO;
        try {
            for (String line : Files.readAllLines(io.resolve("requests.jsonl"))) {
                try {
                    JsonNode r = JSON.readTree(line);
                    if (r.path("model_request").asBoolean(false)) {
                        requests++;
                        JsonNode u = r.path("usage");
                        if (r.path("measured").asBoolean(false) && u.hasNonNull("input") && u.hasNonNull("output")) {
                            measured++;
                            in += u.get("input").asLong();
                            out += u.get("output").asLong();
                        }
                        if (r.hasNonNull("cost_usd")) {
                            priced++;
                            cost = cost.add(r.get("cost_usd").decimalValue());
                        }
                    }
                } catch (IOException e) {
                    // a line being written
                }
            }
        } catch (IOException e) {
            // no meter for this run (yet)
        }
        String budget = entry == null ? "" : (entry.maxTokens() != null ? " · budget " + entry.maxTokens() + " tokens" : "")
                + (entry.maxCost() != null ? " · budget $" + entry.maxCost() : "");
        String tokens = measured == 0 ? "tokens unmeasured" : "tokens " + in + " in, " + out + " out"
                + (measured < requests ? " (" + (requests - measured) + " requests unmeasured)" : "");
        String costs = priced == 0 ? " · cost unmeasured" : " · cost $" + cost.toPlainString()
                + (priced < measured ? " (" + (measured - priced) + " requests unpriced)" : "");
        return "model requests so far " + requests + " · " + tokens + costs + budget;
    }

    /** The files a running run's output grows in, in the order they are streamed. */
    static List<Path> outputs(Path io) {
        return List.of(io.resolve("stdout.log"), io.resolve("stderr.log"));
    }
}
