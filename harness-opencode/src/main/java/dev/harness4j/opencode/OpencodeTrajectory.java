package dev.harness4j.opencode;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.Execution;
import dev.harness4j.api.support.StepReader;
import dev.harness4j.api.TokenUsage;
import dev.harness4j.api.TrajectoryStep;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The agent steps of a run from {@code opencode run --format json}, read lazily: one step per
 * {@code step_start} ... {@code step_finish} (one model call), with its {@code text} and {@code
 * reasoning} parts, its {@code tool_use} parts as tool calls (their {@code state.output} as the
 * results: opencode prints a tool call once it has run), and the tokens and cost of its {@code
 * step_finish} (output tokens include the reasoning ones). The events name no model.
 */
final class OpencodeTrajectory extends StepReader {
    private static final ObjectMapper JSON = new ObjectMapper();

    private Builder open;

    static Stream<TrajectoryStep> of(Execution ex) {
        return new OpencodeTrajectory().steps(ex.stdoutLines());
    }

    /** One step being read. */
    private static final class Builder {
        Instant at;
        final StringBuilder text = new StringBuilder();
        final StringBuilder reasoning = new StringBuilder();
        final List<TrajectoryStep.ToolCall> calls = new ArrayList<>();
        final List<TrajectoryStep.ToolResult> results = new ArrayList<>();
        TokenUsage usage;
        BigDecimal cost;

        TrajectoryStep build() {
            return TrajectoryStep.agent(null, text.toString()).withTimestamp(at)
                    .withReasoning(reasoning.length() == 0 ? null : reasoning.toString()).withToolCalls(calls)
                    .withResults(results).withUsage(usage, cost);
        }
    }

    @Override
    protected void end() {
        if (open != null) {
            emit(open.build());
            open = null;
        }
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
        JsonNode part = e.path("part");
        String type = e.path("type").asText();
        if (type.equals("step_start")) {
            if (open != null) {
                emit(open.build());
            }
            open = new Builder();
            open.at = e.path("timestamp").isNumber() ? Instant.ofEpochMilli(e.path("timestamp").asLong()) : null;
            return;
        }
        if (open == null) {
            return;
        }
        switch (type) {
            case "text" -> {
                if (!part.path("synthetic").asBoolean(false)) {
                    open.text.append(part.path("text").asText(""));
                }
            }
            case "reasoning" -> open.reasoning.append(part.path("text").asText(""));
            case "tool_use" -> {
                String id = part.path("callID").asText(part.path("id").asText("call"));
                JsonNode state = part.path("state");
                open.calls.add(new TrajectoryStep.ToolCall(id, part.path("tool").asText(), state.path("input").toString()));
                JsonNode out = state.has("output") ? state.path("output") : state.path("error");
                open.results.add(new TrajectoryStep.ToolResult(id, out.isMissingNode() ? "" : out.asText()));
            }
            case "step_finish" -> {
                JsonNode t = part.path("tokens");
                if (t.isObject()) {
                    Long output = t.path("output").isNumber() ? t.path("output").asLong()
                            + t.path("reasoning").asLong(0) : null;
                    open.usage = new TokenUsage(num(t.path("input")), output, num(t.path("cache").path("read")),
                            num(t.path("cache").path("write")), TokenUsage.Source.ADAPTER);
                }
                open.cost = part.path("cost").isNumber() ? part.path("cost").decimalValue() : null;
                emit(open.build());
                open = null;
            }
            default -> { }
        }
    }

    private static Long num(JsonNode n) {
        return n.isNumber() ? Math.max(0, n.asLong()) : null;
    }
}
