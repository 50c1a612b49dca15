package dev.harness4j.codex;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.harness4j.api.Execution;
import dev.harness4j.api.support.StepReader;
import dev.harness4j.api.TrajectoryStep;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The agent steps of a run from {@code codex exec --json}, read lazily. Codex's events mark no
 * model call, only completed items, so a step is the items up to and including an {@code
 * agent_message} (or the end of a turn): its {@code reasoning} text, its {@code
 * command_execution}, {@code file_change}, {@code mcp_tool_call} and {@code web_search} items as
 * tool calls (named by item type, the MCP tool by its name) with their outputs as results, and
 * the message as its text. Usage comes per turn only, so steps carry none (the run's totals do).
 */
final class CodexTrajectory extends StepReader {
    private static final ObjectMapper JSON = new ObjectMapper();

    private StringBuilder reasoning;
    private List<TrajectoryStep.ToolCall> calls;
    private List<TrajectoryStep.ToolResult> results;

    static Stream<TrajectoryStep> of(Execution ex) {
        return new CodexTrajectory().steps(ex.stdoutLines());
    }

    @Override
    protected void end() {
        if (calls != null) {
            close("");
        }
    }

    private void open() {
        if (calls == null) {
            reasoning = new StringBuilder();
            calls = new ArrayList<>();
            results = new ArrayList<>();
        }
    }

    private void close(String message) {
        open();
        emit(TrajectoryStep.agent(null, message).withReasoning(reasoning.length() == 0 ? null : reasoning.toString())
                .withToolCalls(calls).withResults(results));
        calls = null;
    }

    @Override
    protected void line(String raw) {
        String line = raw.strip();
        if (!line.startsWith("{\"type\":")) {
            return;
        }
        JsonNode e;
        try {
            e = JSON.readTree(line);
        } catch (Exception ex) {
            return;
        }
        String type = e.path("type").asText();
        if (type.equals("turn.completed") || type.equals("turn.failed")) {
            if (calls != null) {
                close("");
            }
            return;
        }
        if (!type.equals("item.completed")) {
            return;
        }
        JsonNode item = e.path("item");
        String id = item.path("id").asText("item");
        switch (item.path("type").asText()) {
            case "agent_message" -> close(item.path("text").asText(""));
            case "reasoning" -> {
                open();
                reasoning.append(item.path("text").asText(""));
            }
            case "command_execution" -> call(id, "command_execution", args("command", item.path("command")),
                    item.path("aggregated_output").asText(""));
            case "file_change" -> call(id, "file_change", args("changes", item.path("changes")),
                    item.path("status").asText(""));
            case "mcp_tool_call" -> call(id, item.path("tool").asText("mcp_tool_call"), item.path("arguments"),
                    item.path("result").isMissingNode() ? item.path("status").asText("") : item.path("result").toString());
            case "web_search" -> call(id, "web_search", args("query", item.path("query")), "");
            default -> { }
        }
    }

    private static JsonNode args(String name, JsonNode value) {
        ObjectNode o = JSON.createObjectNode();
        o.set(name, value);
        return o;
    }

    private void call(String id, String name, JsonNode arguments, String output) {
        open();
        calls.add(new TrajectoryStep.ToolCall(id, name, arguments.isObject() ? arguments.toString() : "{}"));
        results.add(new TrajectoryStep.ToolResult(id, output));
    }
}
