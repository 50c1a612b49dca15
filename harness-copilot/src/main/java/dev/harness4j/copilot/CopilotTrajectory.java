package dev.harness4j.copilot;

import com.fasterxml.jackson.databind.JsonNode;
import dev.harness4j.api.Execution;
import dev.harness4j.api.support.StepReader;
import dev.harness4j.api.TrajectoryStep;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The agent steps of a run from Copilot CLI's JSONL, read lazily: one step per {@code
 * assistant.message} event (its text, reasoning and {@code toolRequests}), with the {@code
 * tool.execution_complete} events that follow as its results. Steps carry no usage (the JSONL
 * prints none) and name no model.
 */
final class CopilotTrajectory extends StepReader {
    private TrajectoryStep pending;

    static Stream<TrajectoryStep> of(Execution ex) {
        return new CopilotTrajectory().steps(ex.stdoutLines());
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
        if (!t.contains("\"assistant.message\"") && !t.contains("\"tool.execution_complete\"")) {
            return;
        }
        JsonNode n = CopilotEvents.object(t);
        if (n == null) {
            return;
        }
        JsonNode data = n.path("data");
        if ("assistant.message".equals(n.path("type").asText())) {
            if (pending != null) {
                emit(pending);
            }
            List<TrajectoryStep.ToolCall> calls = new ArrayList<>();
            for (JsonNode r : data.path("toolRequests")) {
                JsonNode args = r.path("arguments");
                calls.add(new TrajectoryStep.ToolCall(r.path("toolCallId").asText(), r.path("name").asText(),
                        args.isObject() ? args.toString() : args.isTextual() ? args.asText() : "{}"));
            }
            String reasoning = data.path("reasoningText").isTextual() ? data.path("reasoningText").asText() : null;
            pending = TrajectoryStep.agent(null, CopilotEvents.messageText(data)).withToolCalls(calls)
                    .withReasoning(reasoning == null || reasoning.isBlank() ? null : reasoning);
        } else if (pending != null) {
            List<TrajectoryStep.ToolResult> results = new ArrayList<>(pending.results());
            JsonNode r = data.path("result");
            String content = r.path("content").isTextual() ? r.path("content").asText()
                    : data.path("error").path("message").asText("");
            results.add(new TrajectoryStep.ToolResult(data.path("toolCallId").asText(), content));
            pending = pending.withResults(results);
        }
    }
}
