package dev.harness4j.gemini;

import com.fasterxml.jackson.databind.JsonNode;
import dev.harness4j.api.Execution;
import dev.harness4j.api.support.StepReader;
import dev.harness4j.api.TrajectoryStep;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The agent steps of a run from {@code gemini --output-format stream-json}, read lazily. One model
 * answer prints as assistant {@code message} deltas and {@code tool_use} events, then the CLI runs
 * the tools ({@code tool_result} events) and asks the model again; so a step is the text and tool
 * calls up to the next text or call after a tool result (or the {@code result} event), with the
 * results of its calls. The events carry no per-answer usage or model, so steps carry none (the
 * run's totals do).
 */
final class GeminiTrajectory extends StepReader {
    private StringBuilder text;
    private List<TrajectoryStep.ToolCall> calls;
    private List<TrajectoryStep.ToolResult> results;

    static Stream<TrajectoryStep> of(Execution ex) {
        return new GeminiTrajectory().steps(ex.stdoutLines());
    }

    @Override
    protected void end() {
        if (text != null) {
            close();
        }
    }

    /** Opens a step for a model's output; one whose tools already answered is closed first. */
    private void modelOutput() {
        if (text != null && !results.isEmpty()) {
            close();
        }
        if (text == null) {
            text = new StringBuilder();
            calls = new ArrayList<>();
            results = new ArrayList<>();
        }
    }

    private void close() {
        emit(TrajectoryStep.agent(null, text.toString()).withToolCalls(calls).withResults(results));
        text = null;
    }

    @Override
    protected void line(String raw) {
        JsonNode e = GeminiEvents.event(raw);
        if (e == null) {
            return;
        }
        switch (e.path("type").asText()) {
            case "message" -> {
                if ("assistant".equals(e.path("role").asText())) {
                    modelOutput();
                    text.append(e.path("content").asText(""));
                }
            }
            case "tool_use" -> {
                modelOutput();
                JsonNode params = e.path("parameters");
                calls.add(new TrajectoryStep.ToolCall(e.path("tool_id").asText("tool"), e.path("tool_name").asText("tool"),
                        params.isObject() ? params.toString() : "{}"));
            }
            case "tool_result" -> {
                if (text != null) {
                    String output = e.path("output").asText("");
                    if (output.isEmpty() && e.path("error").isObject()) {
                        output = e.path("error").path("message").asText("");
                    }
                    if (output.isEmpty()) {
                        output = e.path("status").asText("");
                    }
                    results.add(new TrajectoryStep.ToolResult(e.path("tool_id").asText("tool"), output));
                }
            }
            case "result" -> stop(); // end() closes the open step
            default -> { } // init, user messages, error notices
        }
    }
}
