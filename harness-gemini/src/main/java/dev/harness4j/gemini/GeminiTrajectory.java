package dev.harness4j.gemini;

import com.fasterxml.jackson.databind.JsonNode;
import dev.harness4j.api.Execution;
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
 * The agent steps of a run from {@code gemini --output-format stream-json}, read lazily. One model
 * answer prints as assistant {@code message} deltas and {@code tool_use} events, then the CLI runs
 * the tools ({@code tool_result} events) and asks the model again; so a step is the text and tool
 * calls up to the next text or call after a tool result (or the {@code result} event), with the
 * results of its calls. The events carry no per-answer usage or model, so steps carry none (the
 * run's totals do).
 */
final class GeminiTrajectory implements Iterator<TrajectoryStep> {
    private final Iterator<String> lines;
    private StringBuilder text;
    private List<TrajectoryStep.ToolCall> calls;
    private List<TrajectoryStep.ToolResult> results;
    private TrajectoryStep ready;
    private boolean ended;

    private GeminiTrajectory(Iterator<String> lines) {
        this.lines = lines;
    }

    static Stream<TrajectoryStep> of(Execution ex) {
        Stream<String> lines = ex.stdoutLines();
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(new GeminiTrajectory(lines.iterator()),
                Spliterator.ORDERED), false).onClose(lines::close);
    }

    @Override
    public boolean hasNext() {
        while (ready == null && !ended && lines.hasNext()) {
            read(lines.next());
        }
        if (ready == null && text != null) {
            close();
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
        ready = TrajectoryStep.agent(null, text.toString()).withToolCalls(calls).withResults(results);
        text = null;
    }

    private void read(String raw) {
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
            case "result" -> {
                ended = true;
                if (text != null) {
                    close();
                }
            }
            default -> { } // init, user messages, error notices
        }
    }
}
