package dev.harness4j.acp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.harness4j.api.Execution;
import dev.harness4j.api.support.StepReader;
import dev.harness4j.api.TrajectoryStep;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The agent steps of an ACP session from its {@code session/update} notifications, read lazily: a
 * step is the agent's message and thought chunks and tool calls up to the next message or thought
 * after a tool call finished, with the calls' results ({@code tool_call_update} with status {@code
 * completed} or {@code failed}). ACP v1 gives no per-step usage or model, so steps carry none.
 */
final class AcpTrajectory extends StepReader {
    private StringBuilder text;
    private StringBuilder thought;
    private Map<String, TrajectoryStep.ToolCall> calls;
    private List<TrajectoryStep.ToolResult> results;
    private boolean sessionOpen; // a loaded session's replayed history comes before session/load's answer

    static Stream<TrajectoryStep> of(Execution ex) {
        return new AcpTrajectory().steps(ex.stdoutLines());
    }

    @Override
    protected void line(String raw) {
        JsonNode m = AcpLines.message(raw);
        if (m != null && !m.has("method") && m.path("id").asInt(-1) == dev.harness4j.api.AcpSession.NEW_SESSION_ID) {
            sessionOpen = true;
        }
        JsonNode u = AcpLines.update(m);
        if (u == null || !sessionOpen) {
            return;
        }
        switch (u.path("sessionUpdate").asText()) {
            case "agent_message_chunk" -> output().append(AcpLines.text(u.path("content")));
            case "agent_thought_chunk" -> {
                output();
                thought.append(AcpLines.text(u.path("content")));
            }
            case "tool_call" -> {
                if (text == null) {
                    open();
                }
                String id = u.path("toolCallId").asText("");
                String name = u.path("kind").asText(u.path("title").asText("tool"));
                JsonNode input = u.path("rawInput");
                calls.put(id, new TrajectoryStep.ToolCall(id, name, input.isObject() ? input.toString() : "{}"));
                finished(u);
            }
            case "tool_call_update" -> finished(u);
            default -> { }
        }
    }

    private void finished(JsonNode u) {
        String status = u.path("status").asText("");
        if ((status.equals("completed") || status.equals("failed")) && calls != null) {
            String id = u.path("toolCallId").asText("");
            JsonNode out = u.has("rawOutput") ? u.path("rawOutput") : u.path("content");
            String content = out.isTextual() ? out.asText() : AcpLines.text(out);
            results.removeIf(r -> r.callId().equals(id));
            results.add(new TrajectoryStep.ToolResult(id, content.isEmpty() && !out.isMissingNode() ? out.toString() : content));
        }
    }

    private StringBuilder output() {
        if (text != null && !results.isEmpty()) {
            close();
        }
        if (text == null) {
            open();
        }
        return text;
    }

    private void open() {
        text = new StringBuilder();
        thought = new StringBuilder();
        calls = new LinkedHashMap<>();
        results = new ArrayList<>();
    }

    private void close() {
        TrajectoryStep s = TrajectoryStep.agent(null, text.toString()).withToolCalls(new ArrayList<>(calls.values()))
                .withResults(results);
        emit(thought.length() > 0 ? s.withReasoning(thought.toString()) : s);
        text = null;
    }

    @Override
    protected void end() {
        if (text != null) {
            close();
        }
    }
}
