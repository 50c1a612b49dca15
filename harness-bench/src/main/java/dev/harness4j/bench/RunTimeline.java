package dev.harness4j.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * A run page's timeline, read from the run's result dir: the phases from {@code events.jsonl}'s
 * status events (preparing, running the harness, capturing, writing results; each with its start
 * and duration and, for running, how many output lines it printed), the guard's stop (meta.json's
 * {@code termination} when the harness did not exit by itself), the model requests from
 * {@code requests.jsonl} (status, latency, models, tokens, errors), the verifier (meta.json's
 * {@code verify}: it runs last before the results are written, so its bar ends there), and what
 * the files say was left out. Every row has a bar on one time axis. Lines that cannot be read are
 * counted, not shown; a run without events says so. Shown on the static report's run pages and
 * on {@code harness4j serve}'s ({@link #html}).
 */
public final class RunTimeline {
    /** At most this many model requests are rows; the rest are counted. */
    static final int MAX_REQUESTS = 500;

    static final String CSS = """
            table.timeline td.bar{width:420px;padding:4px 0}table.timeline td.bar div{position:relative;height:12px;background:#f4f6fa}
            table.timeline td.bar span{position:absolute;top:0;height:12px;min-width:2px;background:#6b8fd6}
            table.timeline tr.guard span{background:#b42318}table.timeline tr.request span{background:#9aa7bd}
            table.timeline tr.verify span{background:#17803d}table.timeline tr.failed span{background:#e0a09a}
            """;

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNode OUTPUT = JSON.createObjectNode().put("type", "output");

    private record Entry(String kind, Instant start, Duration length, String what) {}

    private RunTimeline() {}

    /**
     * The timeline section of a run, with its style, for a page of its own.
     *
     * @param dir the run's result dir
     * @return the section's HTML ({@code <style>}, the heading and the table)
     * @throws IOException when a file of the run exists but cannot be read
     */
    public static String html(Path dir) throws IOException {
        StringBuilder sb = new StringBuilder("<style>").append(CSS).append("</style>");
        append(sb, dir);
        return sb.toString();
    }

    /** Appends the timeline section of the run whose result dir is {@code dir}. */
    static void append(StringBuilder sb, Path dir) throws IOException {
        List<Entry> entries = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        JsonNode meta = readMeta(dir.resolve("meta.json"));
        Instant finished = instant(meta.path("finished_at"));
        phases(dir.resolve("events.jsonl"), finished, entries, notes);
        guard(meta, entries);
        requests(dir.resolve("requests.jsonl"), entries, notes);
        verify(meta, entries);
        sb.append("<h2>Timeline</h2><div id=\"events\">");
        if (entries.isEmpty()) {
            sb.append("<p>no timed events recorded</p>");
        } else {
            table(sb, entries);
        }
        notes.forEach(n -> sb.append("<p class=\"unmeasured\">").append(BenchReport.esc(n)).append("</p>"));
        sb.append("</div>");
    }

    private static void phases(Path file, Instant finished, List<Entry> entries, List<String> notes) throws IOException {
        List<Instant> at = new ArrayList<>();
        List<String> name = new ArrayList<>();
        List<Integer> output = new ArrayList<>();
        int unreadable = 0;
        int lines = 0;
        for (JsonNode e : lines(file)) {
            if (e == null) {
                unreadable++;
                continue;
            }
            String type = e.path("type").asText("");
            if (type.equals("output")) {
                lines++;
            } else if (type.equals("output_truncated")) {
                notes.add(e.path("dropped_lines").asLong() + " further output lines are not events (the transcript has them)");
            } else if (type.equals("status")) {
                Instant t = instant(e.path("at"));
                if (t == null) {
                    unreadable++;
                    continue;
                }
                if (!name.isEmpty()) {
                    output.set(output.size() - 1, lines);
                }
                lines = 0;
                String detail = e.path("detail").asText("");
                at.add(t);
                name.add(e.path("status").asText("?") + (detail.isEmpty() ? "" : ": " + detail));
                output.add(0);
            }
        }
        if (!name.isEmpty()) {
            output.set(output.size() - 1, lines);
        }
        for (int i = 0; i < name.size(); i++) {
            Instant end = i + 1 < at.size() ? at.get(i + 1) : finished;
            String what = name.get(i).equals("capturing: writing results") ? "writing results" : name.get(i);
            what += output.get(i) > 0 ? " · " + output.get(i) + " output lines" : "";
            entries.add(new Entry("phase", at.get(i), end == null || end.isBefore(at.get(i)) ? null
                    : Duration.between(at.get(i), end), what));
        }
        if (unreadable > 0) {
            notes.add(unreadable + " lines of events.jsonl could not be read");
        }
    }

    private static void guard(JsonNode meta, List<Entry> entries) {
        JsonNode t = meta.path("termination");
        String kind = t.path("kind").asText("exited");
        if (kind.equals("exited")) {
            return;
        }
        Instant stopAt = entries.stream().filter(e -> e.what().startsWith("capturing")).map(Entry::start).findFirst()
                .orElse(instant(meta.path("finished_at")));
        if (stopAt != null) {
            String reason = t.path("reason").asText("");
            entries.add(new Entry("guard", stopAt, null, "harness stopped: " + kind.replace('_', '-')
                    + (reason.isEmpty() ? "" : " (" + reason + ")")));
        }
    }

    private static void requests(Path file, List<Entry> entries, List<String> notes) throws IOException {
        int shown = 0;
        int more = 0;
        for (JsonNode r : lines(file)) {
            Instant at = r == null ? null : instant(r.path("at"));
            if (at == null) {
                continue;
            }
            if (shown == MAX_REQUESTS) {
                more++;
                continue;
            }
            shown++;
            StringBuilder w = new StringBuilder().append(r.path("method").asText()).append(' ').append(r.path("path").asText())
                    .append(" → ").append(r.path("status").asInt());
            String requested = r.path("requested_model").asText(null);
            String answered = r.path("answered_model").asText(null);
            if (requested != null || answered != null) {
                w.append(" · ").append(requested == null ? "?" : requested);
                if (answered != null && !answered.equals(requested)) {
                    w.append(" (answered by ").append(answered).append(')');
                }
            }
            JsonNode u = r.path("usage");
            if (u.path("input").isNumber() || u.path("output").isNumber()) {
                w.append(" · tokens in ").append(u.path("input").asText("-")).append(" / out ").append(u.path("output").asText("-"));
            }
            for (String f : List.of("error_type", "upstream_error", "retry_at")) {
                if (r.path(f).isTextual()) {
                    w.append(" · ").append(f.replace('_', ' ')).append(' ').append(r.path(f).asText());
                }
            }
            boolean ok = r.path("status").asInt() / 100 == 2;
            entries.add(new Entry(ok ? "request" : "request failed", at, Duration.ofMillis(Math.max(0, r.path("latency_ms").asLong())),
                    w.toString()));
        }
        if (more > 0) {
            notes.add(more + " further requests are in requests.jsonl");
        }
    }

    private static void verify(JsonNode meta, List<Entry> entries) {
        JsonNode v = meta.path("verify");
        if (!v.isObject() || !v.path("duration_ms").isNumber()) {
            return;
        }
        Instant end = entries.stream().filter(e -> e.what().startsWith("writing results")).map(Entry::start).findFirst()
                .orElse(null);
        if (end != null) {
            Duration d = Duration.ofMillis(v.path("duration_ms").asLong());
            String reason = v.path("reason").asText("");
            entries.add(new Entry("verify", end.minus(d), d, "verifier: " + v.path("status").asText("?")
                    + (reason.isEmpty() ? "" : " (" + reason + ")")));
        }
    }

    private static void table(StringBuilder sb, List<Entry> entries) {
        entries.sort(Comparator.comparing(Entry::start));
        Instant t0 = entries.get(0).start();
        long spanMs = 1;
        for (Entry e : entries) {
            spanMs = Math.max(spanMs, Duration.between(t0, e.start().plus(e.length() == null ? Duration.ZERO : e.length()))
                    .toMillis());
        }
        sb.append("<table class=\"timeline\"><thead><tr><th>at</th><th>kind</th><th>what</th><th>duration</th><th>")
                .append(ms(spanMs)).append(" in all</th></tr></thead><tbody>");
        for (Entry e : entries) {
            long from = Duration.between(t0, e.start()).toMillis();
            Long length = e.length() == null ? null : e.length().toMillis();
            sb.append("<tr class=\"").append(e.kind())
                    .append("\"><td class=\"num\">+").append(String.format(Locale.ROOT, "%.3f s", from / 1000.0))
                    .append("</td><td>").append(BenchReport.esc(e.kind())).append("</td><td>").append(BenchReport.esc(e.what()))
                    .append("</td><td class=\"num\">").append(length == null ? "-" : ms(length))
                    .append("</td><td class=\"bar\"><div><span style=\"left:")
                    .append(String.format(Locale.ROOT, "%.2f%%;width:%.2f%%", 100.0 * from / spanMs,
                            length == null ? 0.0 : 100.0 * length / spanMs))
                    .append("\"></span></div></td></tr>");
        }
        sb.append("</tbody></table>");
    }

    /**
     * Each line of a JSON-lines file as a tree, {@code null} for a line that is not JSON; none when
     * the file is missing. An output-line event becomes just its type (a string value cannot hold
     * an unescaped {@code "type":"output",}, so the test is exact): a run has up to 10,000 of them.
     */
    private static List<JsonNode> lines(Path file) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            for (String l = in.readLine(); l != null; l = in.readLine()) {
                if (l.isBlank()) {
                    continue;
                }
                if (l.contains("\"type\":\"output\",")) {
                    out.add(OUTPUT);
                    continue;
                }
                try {
                    out.add(JSON.readTree(l));
                } catch (IOException e) {
                    out.add(null);
                }
            }
        } catch (NoSuchFileException e) {
            return List.of();
        }
        return out;
    }

    private static String ms(long ms) {
        return ms < 1000 ? ms + " ms" : String.format(Locale.ROOT, "%.1f s", ms / 1000.0);
    }

    private static JsonNode readMeta(Path file) {
        try {
            return JSON.readTree(file.toFile());
        } catch (IOException e) {
            return JSON.createObjectNode();
        }
    }

    private static Instant instant(JsonNode n) {
        if (!n.isTextual()) {
            return null;
        }
        try {
            return Instant.parse(n.asText());
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
