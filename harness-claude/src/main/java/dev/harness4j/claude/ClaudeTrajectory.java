package dev.harness4j.claude;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.harness4j.api.Execution;
import dev.harness4j.api.TokenUsage;
import dev.harness4j.api.TrajectoryStep;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * The agent steps of a run from Claude Code's {@code stream-json} output, read lazily: one step
 * per assistant message (the CLI prints one line per content block, with the same message id:
 * they are joined), its text, thinking and {@code tool_use} blocks, and the {@code tool_result}
 * blocks of the user lines that follow as its results. Messages the CLI writes itself (model
 * {@code <synthetic>}) are left out. Per-step tokens are input and cache figures only: the
 * output count in these lines is the one at the start of the stream, not the final one, so it is
 * left out (the run's totals come from the result envelope or the wire).
 */
final class ClaudeTrajectory implements Iterator<TrajectoryStep> {
    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private final Iterator<String> lines;
    private String id;
    private TrajectoryStep pending;
    private TrajectoryStep ready;

    private ClaudeTrajectory(Iterator<String> lines) {
        this.lines = lines;
    }

    static Stream<TrajectoryStep> of(Execution ex) {
        Stream<String> lines = ex.stdoutLines();
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(new ClaudeTrajectory(lines.iterator()),
                Spliterator.ORDERED), false).onClose(lines::close);
    }

    @Override
    public boolean hasNext() {
        while (ready == null && lines.hasNext()) {
            read(lines.next());
        }
        if (ready == null && pending != null) {
            ready = pending;
            pending = null;
        }
        return ready != null;
    }

    @Override
    public TrajectoryStep next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        TrajectoryStep s = ready;
        ready = null;
        return s;
    }

    private void read(String line) {
        String t = line.strip();
        if (!t.startsWith("{\"type\":\"assistant\"") && !t.startsWith("{\"type\":\"user\"")) {
            return;
        }
        JsonNode n;
        try {
            n = JSON.readTree(t);
        } catch (Exception e) {
            return;
        }
        JsonNode msg = n.path("message");
        if ("assistant".equals(n.path("type").asText())) {
            String model = msg.path("model").asText(null);
            if (AnsweringModels.SYNTHETIC.equals(model)) {
                return;
            }
            String msgId = msg.path("id").asText("");
            if (pending == null || !msgId.equals(id)) {
                ready = pending;
                id = msgId;
                pending = TrajectoryStep.agent(model, "").withUsage(usage(msg.path("usage")), null);
            }
            StringBuilder text = new StringBuilder(pending.message());
            StringBuilder thinking = new StringBuilder(pending.reasoning() == null ? "" : pending.reasoning());
            List<TrajectoryStep.ToolCall> calls = new ArrayList<>(pending.toolCalls());
            for (JsonNode b : msg.path("content")) {
                switch (b.path("type").asText()) {
                    case "text" -> text.append(b.path("text").asText());
                    case "thinking" -> thinking.append(b.path("thinking").asText());
                    case "tool_use" -> calls.add(new TrajectoryStep.ToolCall(b.path("id").asText(),
                            b.path("name").asText(), b.path("input").toString()));
                    default -> { }
                }
            }
            pending = pending.withMessage(text.toString()).withToolCalls(calls)
                    .withReasoning(thinking.length() == 0 ? null : thinking.toString());
        } else if (pending != null && msg.path("content").isArray()) {
            List<TrajectoryStep.ToolResult> results = new ArrayList<>(pending.results());
            for (JsonNode b : msg.path("content")) {
                if ("tool_result".equals(b.path("type").asText())) {
                    results.add(new TrajectoryStep.ToolResult(b.path("tool_use_id").asText(), text(b.path("content"))));
                }
            }
            pending = pending.withResults(results);
        }
    }

    private static String text(JsonNode content) {
        if (content.isTextual()) {
            return content.asText();
        }
        StringBuilder sb = new StringBuilder();
        for (JsonNode part : content) {
            if (part.path("text").isTextual()) {
                sb.append(sb.length() > 0 ? "\n" : "").append(part.path("text").asText());
            }
        }
        return sb.toString();
    }

    private static TokenUsage usage(JsonNode u) {
        Long in = u.path("input_tokens").isNumber() ? u.path("input_tokens").asLong() : null;
        Long read = u.path("cache_read_input_tokens").isNumber() ? u.path("cache_read_input_tokens").asLong() : null;
        Long write = u.path("cache_creation_input_tokens").isNumber() ? u.path("cache_creation_input_tokens").asLong()
                : null;
        return in == null && read == null && write == null ? null
                : new TokenUsage(in, null, read, write, TokenUsage.Source.ADAPTER);
    }
}
