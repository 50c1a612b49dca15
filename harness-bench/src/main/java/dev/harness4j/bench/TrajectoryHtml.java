package dev.harness4j.bench;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * A run's {@code trajectory.json} as a readable step list for its report page: one item per
 * step (the prompt, each model call with its model and tokens, its reply), each tool call with
 * its arguments, and each observation folded ({@code <details>}). Read with a streaming parser,
 * one step at a time; at most {@link #MAX_STEPS} steps and {@link #MAX_TEXT} characters per text
 * are shown. Plain HTML, no script. Pure rendering; an absent or unreadable file gives a line
 * saying so.
 */
final class TrajectoryHtml {
    /** Steps shown; the rest are counted. */
    static final int MAX_STEPS = 300;
    /** Characters of one message, argument list or observation shown. */
    static final int MAX_TEXT = 2000;
    /** The CSS the fragment needs, for the page's stylesheet. */
    static final String CSS = """
            ol.trajectory{font-size:13px;padding-left:28px} ol.trajectory li{margin:6px 0}
            ol.trajectory .src{font-weight:600} ol.trajectory .meta{color:#667085}
            ol.trajectory pre{white-space:pre-wrap;margin:3px 0;background:#f6f8fb;padding:4px 6px;border-radius:4px}
            ol.trajectory code.tool{color:#6941c6;font-weight:600}
            """;

    private static final ObjectMapper JSON = new ObjectMapper();

    private TrajectoryHtml() {}

    /** Appends the step list of the run in {@code resultDir} to {@code h}. */
    static void append(StringBuilder h, Path resultDir) {
        Path file = resultDir.resolve("trajectory.json");
        if (!Files.isRegularFile(file)) {
            h.append("<p class=\"unmeasured\">no trajectory.json</p>\n");
            return;
        }
        StringBuilder list = new StringBuilder();
        try (JsonParser p = JSON.getFactory().createParser(file.toFile())) {
            String source = null;
            int shown = 0;
            int more = 0;
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException("not a JSON object");
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                p.nextToken();
                if (field.equals("steps") && p.currentToken() == JsonToken.START_ARRAY) {
                    while (p.nextToken() == JsonToken.START_OBJECT) {
                        JsonNode step = p.readValueAsTree();
                        if (shown < MAX_STEPS) {
                            step(list, step);
                            shown++;
                        } else {
                            more++;
                        }
                    }
                } else if (field.equals("extra")) {
                    source = ((JsonNode) p.readValueAsTree()).path("harness4j").path("trajectory_source").asText(null);
                } else {
                    p.skipChildren();
                }
            }
            h.append("<p class=\"meta\">").append(shown + more).append(" steps")
                    .append(source == null ? "" : ", from " + HtmlReport.esc(source)).append("</p>\n")
                    .append("<ol class=\"trajectory\">\n").append(list).append("</ol>\n");
            if (more > 0) {
                h.append("<p class=\"meta\">").append(more).append(" more steps not shown</p>\n");
            }
        } catch (IOException | RuntimeException e) {
            h.append("<p class=\"failed\">trajectory.json unreadable: ").append(HtmlReport.esc(String.valueOf(e.getMessage())))
                    .append("</p>\n");
        }
    }

    private static void step(StringBuilder h, JsonNode s) {
        String source = s.path("source").asText("?");
        h.append("<li><span class=\"src\">").append(HtmlReport.esc(source.equals("agent") ? "model call" : source))
                .append("</span>");
        JsonNode m = s.path("metrics");
        StringBuilder meta = new StringBuilder();
        if (s.has("model_name")) {
            meta.append(s.get("model_name").asText());
        }
        if (m.has("prompt_tokens") || m.has("completion_tokens")) {
            meta.append(meta.length() > 0 ? ", " : "").append(String.format(Locale.ROOT, "%s in / %s out",
                    m.path("prompt_tokens").asText("?"), m.path("completion_tokens").asText("?")));
        }
        if (m.has("cost_usd")) {
            meta.append(String.format(Locale.ROOT, ", $%.4f", m.get("cost_usd").asDouble()));
        }
        if (meta.length() > 0) {
            h.append(" <span class=\"meta\">").append(HtmlReport.esc(meta.toString())).append("</span>");
        }
        String message = s.path("message").isTextual() ? s.get("message").asText() : "";
        if (!message.isBlank()) {
            h.append("<pre>").append(HtmlReport.esc(cut(message))).append("</pre>");
        }
        for (JsonNode c : s.path("tool_calls")) {
            h.append("<div><code class=\"tool\">").append(HtmlReport.esc(c.path("function_name").asText()))
                    .append("</code> <code>").append(HtmlReport.esc(cut(c.path("arguments").toString())))
                    .append("</code></div>");
        }
        for (JsonNode r : s.path("observation").path("results")) {
            String content = r.path("content").isTextual() ? r.get("content").asText() : r.path("content").toString();
            h.append("<details><summary>result").append(r.has("source_call_id") ? " of "
                    + HtmlReport.esc(r.get("source_call_id").asText()) : "").append(" (")
                    .append(content.length()).append(" chars)</summary><pre>").append(HtmlReport.esc(cut(content)))
                    .append("</pre></details>");
        }
        h.append("</li>\n");
    }

    private static String cut(String s) {
        return s.length() <= MAX_TEXT ? s : s.substring(0, MAX_TEXT) + " … (" + (s.length() - MAX_TEXT) + " more chars)";
    }
}
