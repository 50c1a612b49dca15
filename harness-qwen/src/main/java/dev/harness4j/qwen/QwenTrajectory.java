package dev.harness4j.qwen;

import com.fasterxml.jackson.databind.JsonNode;
import dev.harness4j.api.Execution;
import dev.harness4j.api.support.StepReader;
import dev.harness4j.api.TokenUsage;
import dev.harness4j.api.TrajectoryStep;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The agent steps of a run from Qwen Code's {@code stream-json} output, read lazily: one step per
 * {@code assistant} line (Qwen Code prints each model turn whole, once), its text, thinking and
 * {@code tool_use} blocks, with the {@code tool_result} blocks of the {@code user} lines that
 * follow as its results, and the turn's usage ({@code input} without the cache reads its {@code
 * input_tokens} include; none when a failed request printed zeros). Steps name no model: Qwen
 * Code's lines repeat the requested one whatever answered.
 */
final class QwenTrajectory extends StepReader {
    private TrajectoryStep pending;

    static Stream<TrajectoryStep> of(Execution ex) {
        return new QwenTrajectory().steps(ex.stdoutLines());
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
        JsonNode n = QwenEvents.object(t);
        if (n == null) {
            return;
        }
        JsonNode msg = n.path("message");
        if ("assistant".equals(n.path("type").asText())) {
            if (pending != null) {
                emit(pending);
            }
            StringBuilder text = new StringBuilder();
            StringBuilder thinking = new StringBuilder();
            List<TrajectoryStep.ToolCall> calls = new ArrayList<>();
            for (JsonNode b : msg.path("content")) {
                switch (b.path("type").asText()) {
                    case "text" -> text.append(b.path("text").asText());
                    case "thinking" -> thinking.append(b.path("thinking").asText());
                    case "tool_use" -> calls.add(new TrajectoryStep.ToolCall(b.path("id").asText(),
                            b.path("name").asText(), b.path("input").isObject() ? b.path("input").toString() : "{}"));
                    default -> { }
                }
            }
            pending = TrajectoryStep.agent(null, text.toString()).withToolCalls(calls)
                    .withReasoning(thinking.length() == 0 ? null : thinking.toString())
                    .withUsage(usage(msg.path("usage")), null);
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
        QwenEvents.Usage q = QwenEvents.Usage.of(u);
        if (q == null || !q.any()) {
            return null;
        }
        return new TokenUsage(Math.max(0, q.input() - q.cacheRead()), q.output(), q.cacheRead(), null,
                TokenUsage.Source.ADAPTER);
    }
}
