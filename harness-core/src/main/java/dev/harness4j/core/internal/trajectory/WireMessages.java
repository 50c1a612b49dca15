package dev.harness4j.core.internal.trajectory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.TrajectoryStep;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import java.util.zip.InflaterInputStream;

/**
 * Reads recorded model-call bodies: the tool results a request carries back, and the
 * reply, reasoning and tool calls a response carries; for Anthropic Messages, OpenAI Chat
 * Completions and OpenAI Responses, streamed (SSE) or whole. What it cannot read gives nothing,
 * never an exception. Pure functions.
 */
final class WireMessages {
    private WireMessages() {}

    /** What a response said. */
    record Reply(String model, String text, String reasoning, List<TrajectoryStep.ToolCall> toolCalls) {}

    /** A request's body as JSON, or null when missing, cut or not JSON. */
    static JsonNode request(Path file, ObjectMapper json) {
        try (InputStream in = Files.newInputStream(file)) {
            return json.readTree(in);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** The tool results a request carries back after the model's last turn, by call id in order. */
    static Map<String, String> toolResults(JsonNode req) {
        Map<String, String> out = new LinkedHashMap<>();
        if (req == null) {
            return out;
        }
        JsonNode messages = req.path("messages");
        if (messages.isArray() && messages.size() > 0) {
            int i = messages.size() - 1;
            JsonNode last = messages.get(i);
            if ("user".equals(last.path("role").asText()) && last.path("content").isArray()) { // Anthropic
                for (JsonNode b : last.path("content")) {
                    if ("tool_result".equals(b.path("type").asText())) {
                        out.put(b.path("tool_use_id").asText(), text(b.path("content")));
                    }
                }
            }
            while (i >= 0 && "tool".equals(messages.get(i).path("role").asText())) { // Chat: trailing tool messages
                i--;
            }
            for (int k = i + 1; k < messages.size(); k++) {
                out.put(messages.get(k).path("tool_call_id").asText(), text(messages.get(k).path("content")));
            }
        }
        for (JsonNode item : req.path("input")) { // Responses
            if ("function_call_output".equals(item.path("type").asText())) {
                out.put(item.path("call_id").asText(), text(item.path("output")));
            }
        }
        return out;
    }

    /** Text of a content value: a string, or the text parts of an array of blocks. */
    static String text(JsonNode content) {
        if (content == null || content.isMissingNode() || content.isNull()) {
            return "";
        }
        if (content.isTextual()) {
            return content.asText();
        }
        StringBuilder sb = new StringBuilder();
        for (JsonNode part : content) {
            JsonNode t = part.has("text") ? part.get("text") : part.path("content");
            if (t.isTextual()) {
                if (sb.length() > 0) {
                    sb.append('\n');
                }
                sb.append(t.asText());
            }
        }
        return sb.toString();
    }

    /** Reads a recorded response, or null when it cannot be read. */
    static Reply response(Path file, String contentType, String encoding, ObjectMapper json) {
        if (!Files.isRegularFile(file)) {
            return null;
        }
        try (InputStream raw = Files.newInputStream(file);
                InputStream in = decoded(raw, encoding)) {
            if (contentType != null && contentType.toLowerCase(java.util.Locale.ROOT).startsWith("text/event-stream")) {
                return sse(new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)), json);
            }
            return whole(json.readTree(in));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static InputStream decoded(InputStream in, String encoding) throws IOException {
        if (encoding == null) {
            return in;
        }
        return switch (encoding.strip()) {
            case "gzip", "x-gzip" -> new GZIPInputStream(in);
            case "deflate" -> new InflaterInputStream(in);
            default -> in;
        };
    }

    static Reply whole(JsonNode r) {
        if (r == null) {
            return null;
        }
        String model = r.path("model").isTextual() ? r.path("model").asText() : null;
        StringBuilder text = new StringBuilder();
        StringBuilder reasoning = new StringBuilder();
        List<TrajectoryStep.ToolCall> calls = new ArrayList<>();
        if (r.path("content").isArray()) { // Anthropic
            for (JsonNode b : r.path("content")) {
                switch (b.path("type").asText()) {
                    case "text" -> text.append(b.path("text").asText());
                    case "thinking" -> reasoning.append(b.path("thinking").asText());
                    case "tool_use" -> calls.add(new TrajectoryStep.ToolCall(b.path("id").asText(),
                            b.path("name").asText(), b.path("input").toString()));
                    default -> { }
                }
            }
        }
        JsonNode msg = r.path("choices").path(0).path("message"); // Chat
        if (msg.isObject()) {
            text.append(msg.path("content").isTextual() ? msg.path("content").asText() : "");
            for (String f : new String[] {"reasoning_content", "reasoning"}) {
                if (msg.path(f).isTextual()) {
                    reasoning.append(msg.path(f).asText());
                }
            }
            for (JsonNode c : msg.path("tool_calls")) {
                calls.add(new TrajectoryStep.ToolCall(c.path("id").asText(), c.path("function").path("name").asText(),
                        c.path("function").path("arguments").asText()));
            }
        }
        for (JsonNode item : r.path("output")) { // Responses
            switch (item.path("type").asText()) {
                case "message" -> text.append(text(item.path("content")));
                case "reasoning" -> reasoning.append(text(item.path("summary")));
                case "function_call" -> calls.add(new TrajectoryStep.ToolCall(item.path("call_id").asText(),
                        item.path("name").asText(), item.path("arguments").asText()));
                default -> { }
            }
        }
        return new Reply(model, text.toString(), reasoning.length() == 0 ? null : reasoning.toString(), calls);
    }

    /** Assembles a streamed reply from its SSE events. */
    private static Reply sse(BufferedReader in, ObjectMapper json) throws IOException {
        StreamedReply acc = new StreamedReply();
        StringBuilder data = new StringBuilder();
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isEmpty()) {
                acc.event(data, json);
                data.setLength(0);
            } else if (line.startsWith("data:")) {
                if (data.length() > 0) {
                    data.append('\n');
                }
                data.append(line.substring(line.charAt(5) == ' ' ? 6 : 5));
            }
        }
        acc.event(data, json);
        return acc.reply();
    }
}
