package dev.harness4j.cline;

import com.fasterxml.jackson.databind.JsonNode;
import dev.harness4j.api.Execution;
import dev.harness4j.api.support.StepReader;
import dev.harness4j.api.TokenUsage;
import dev.harness4j.api.TrajectoryStep;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The agent steps of a run from Cline's {@code --json} events, read lazily: one step per
 * iteration ({@code iteration_start} .. {@code iteration_end}: one model answer and the tools it
 * ran), its text from the {@code content_end} text events, its calls from the {@code
 * content_start} tool events ({@code toolName}, {@code toolCallId}, {@code input}), their
 * results from the {@code content_end} tool events ({@code output}), and the iteration's {@code
 * usage} event (input without the cache reads Cline's {@code inputTokens} include). Steps name no
 * model: Cline's events repeat the requested one.
 */
final class ClineTrajectory extends StepReader {
    private StringBuilder text;
    private List<TrajectoryStep.ToolCall> calls;
    private List<TrajectoryStep.ToolResult> results;
    private TokenUsage usage;

    static Stream<TrajectoryStep> of(Execution ex) {
        return new ClineTrajectory().steps(ex.stdoutLines());
    }

    @Override
    protected void end() {
        close();
    }

    private void open() {
        close();
        text = new StringBuilder();
        calls = new ArrayList<>();
        results = new ArrayList<>();
        usage = null;
    }

    private void close() {
        if (text != null && (text.length() > 0 || !calls.isEmpty())) {
            emit(TrajectoryStep.agent(null, text.toString()).withToolCalls(calls).withResults(results)
                    .withUsage(usage, null));
        }
        text = null;
    }

    @Override
    protected void line(String raw) {
        if (!raw.contains("\"agent_event\"")) {
            return;
        }
        JsonNode e = ClineEvents.object(raw);
        if (e == null || !"agent_event".equals(e.path("type").asText())) {
            return;
        }
        JsonNode ev = e.path("event");
        String type = ev.path("type").asText();
        if ("iteration_start".equals(type)) {
            open();
            return;
        }
        if (text == null) {
            return;
        }
        boolean tool = "tool".equals(ev.path("contentType").asText());
        switch (type) {
            case "content_start" -> {
                if (tool) {
                    JsonNode input = ev.path("input");
                    calls.add(new TrajectoryStep.ToolCall(ev.path("toolCallId").asText("tool"),
                            ev.path("toolName").asText("tool"), input.isObject() ? input.toString() : "{}"));
                }
            }
            case "content_end" -> {
                if (tool) {
                    JsonNode out = ev.path("output");
                    results.add(new TrajectoryStep.ToolResult(ev.path("toolCallId").asText("tool"),
                            out.isTextual() ? out.asText() : out.isMissingNode() ? "" : out.toString()));
                } else if ("text".equals(ev.path("contentType").asText())) {
                    text.append(ev.path("text").asText(""));
                }
            }
            case "usage" -> usage = usage(ev);
            case "iteration_end" -> close();
            default -> { } // reasoning deltas, done, errors
        }
    }

    private static TokenUsage usage(JsonNode ev) {
        ClineEvents.Usage u = ClineEvents.Usage.of(ev);
        if (u == null || !u.any()) {
            return null;
        }
        return new TokenUsage(u.uncachedInput(), u.output(), u.cacheRead(), null, TokenUsage.Source.ADAPTER);
    }
}
