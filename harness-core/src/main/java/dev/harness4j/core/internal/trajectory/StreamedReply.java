package dev.harness4j.core.internal.trajectory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.TrajectoryStep;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A streamed model reply put back together from its SSE events: Anthropic's content blocks
 * (text, thinking and tool-use deltas), OpenAI Chat chunks (content and tool-call deltas by
 * index) and the Responses API's completed response. Used by one reader.
 */
final class StreamedReply {
    private String model;
    private final StringBuilder text = new StringBuilder();
    private final StringBuilder reasoning = new StringBuilder();
    /** Tool calls by block or chunk index: id, name, arguments so far. */
    private final Map<Integer, String[]> calls = new TreeMap<>();
    private final Map<Integer, StringBuilder> args = new TreeMap<>();
    private WireMessages.Reply completed;

    void event(CharSequence data, ObjectMapper json) {
        if (data.length() == 0 || "[DONE]".contentEquals(data)) {
            return;
        }
        JsonNode e;
        try {
            e = json.readTree(data.toString());
        } catch (Exception ex) {
            return; // a broken event: skipped
        }
        String type = e.path("type").asText();
        switch (type) {
            case "message_start" -> model(e.path("message").path("model"));
            case "content_block_start" -> {
                JsonNode b = e.path("content_block");
                int i = e.path("index").asInt();
                if ("tool_use".equals(b.path("type").asText())) {
                    calls.put(i, new String[] {b.path("id").asText(), b.path("name").asText()});
                    args.put(i, new StringBuilder());
                } else if ("text".equals(b.path("type").asText())) {
                    text.append(b.path("text").asText());
                }
            }
            case "content_block_delta" -> {
                JsonNode d = e.path("delta");
                switch (d.path("type").asText()) {
                    case "text_delta" -> text.append(d.path("text").asText());
                    case "thinking_delta" -> reasoning.append(d.path("thinking").asText());
                    case "input_json_delta" -> args.computeIfAbsent(e.path("index").asInt(), k -> new StringBuilder())
                            .append(d.path("partial_json").asText());
                    default -> { }
                }
            }
            case "response.completed" -> {
                try {
                    completed = WireMessages.whole(e.path("response"));
                } catch (RuntimeException ex) {
                    completed = null;
                }
            }
            default -> chatChunk(e);
        }
    }

    private void model(JsonNode m) {
        if (m.isTextual() && model == null) {
            model = m.asText();
        }
    }

    private void chatChunk(JsonNode e) {
        model(e.path("model"));
        JsonNode d = e.path("choices").path(0).path("delta");
        if (!d.isObject()) {
            return;
        }
        if (d.path("content").isTextual()) {
            text.append(d.path("content").asText());
        }
        for (String f : new String[] {"reasoning_content", "reasoning"}) {
            if (d.path(f).isTextual()) {
                reasoning.append(d.path(f).asText());
            }
        }
        for (JsonNode c : d.path("tool_calls")) {
            int i = c.path("index").asInt(calls.size());
            String[] call = calls.computeIfAbsent(i, k -> new String[] {"", ""});
            if (c.path("id").isTextual() && !c.path("id").asText().isEmpty()) {
                call[0] = c.path("id").asText();
            }
            if (c.path("function").path("name").isTextual()) {
                call[1] = call[1] + c.path("function").path("name").asText();
            }
            args.computeIfAbsent(i, k -> new StringBuilder()).append(c.path("function").path("arguments").asText(""));
        }
    }

    WireMessages.Reply reply() {
        if (completed != null) {
            return completed;
        }
        List<TrajectoryStep.ToolCall> out = new ArrayList<>();
        calls.forEach((i, c) -> out.add(new TrajectoryStep.ToolCall(c[0].isEmpty() ? "call_" + i : c[0], c[1],
                args.getOrDefault(i, new StringBuilder()).toString())));
        return new WireMessages.Reply(model, text.toString(), reasoning.length() == 0 ? null : reasoning.toString(), out);
    }
}
