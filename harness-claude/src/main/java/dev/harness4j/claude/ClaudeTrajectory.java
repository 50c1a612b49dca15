package dev.harness4j.claude;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.harness4j.api.Execution;
import dev.harness4j.api.support.StepReader;
import dev.harness4j.api.TokenUsage;
import dev.harness4j.api.TrajectoryStep;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The agent steps of a run from Claude Code's {@code stream-json} output, read lazily: one step
 * per assistant message (the CLI prints one line per content block, with the same message id:
 * they are joined), its text, thinking and {@code tool_use} blocks, and the {@code tool_result}
 * blocks of the user lines that follow as its results. Messages the CLI writes itself (model
 * {@code <synthetic>}) are left out. Per-step tokens are input and cache figures only: the
 * output count in these lines is the one at the start of the stream, not the final one, so it is
 * left out (the run's totals come from the result envelope or the wire).
 */
final class ClaudeTrajectory extends StepReader {
    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private String id;
    private TrajectoryStep pending;

    static Stream<TrajectoryStep> of(Execution ex) {
        return new ClaudeTrajectory().steps(ex.stdoutLines());
    }

    @Override
    protected void end() {
        if (pending != null) {
            emit(pending);
            pending = null;
        }
    }

    @Override
    protected void line(String line) {
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
                if (pending != null) {
                    emit(pending);
                }
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
