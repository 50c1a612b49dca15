package dev.harness4j.otel;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.core.RunRecord;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;

/**
 * The chat and tool spans of one run, from its {@code trajectory.json} read with a streaming
 * parser: one step in memory at a time (plus the next, for its start time).
 */
final class StepSpans {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Tracer tracer;
    private final Context parent;
    private final RunRecord record;
    private final Instant runEnd;
    private Instant previousEnd;

    StepSpans(Tracer tracer, Context parent, RunRecord record, Instant runEnd) {
        this.tracer = tracer;
        this.parent = parent;
        this.record = record;
        this.runEnd = runEnd;
        this.previousEnd = record.startedAt();
    }

    void emit(Path file) throws IOException {
        try (JsonParser p = JSON.getFactory().createParser(file.toFile())) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return;
            }
            JsonNode pending = null;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                p.nextToken();
                if (field.equals("steps") && p.currentToken() == JsonToken.START_ARRAY) {
                    while (p.nextToken() == JsonToken.START_OBJECT) {
                        JsonNode step = p.readValueAsTree();
                        if (!"agent".equals(step.path("source").asText())) {
                            continue;
                        }
                        if (pending != null) {
                            chat(pending, OtelExport.timestamp(step));
                        }
                        pending = step;
                    }
                } else if (field.equals("extra")) {
                    JsonNode extra = p.readValueAsTree();
                    String source = extra.path("harness4j").path("trajectory_source").asText(null);
                    if (source != null) {
                        Span.fromContext(parent).setAttribute(GenAi.H4J_TRAJECTORY_SOURCE, source);
                    }
                } else {
                    p.skipChildren();
                }
            }
            if (pending != null) {
                chat(pending, null);
            }
        }
    }

    /** The span of one model call, and its tools' spans; it ends where the next step starts. */
    private void chat(JsonNode step, Instant nextStart) {
        Instant start = OtelExport.timestamp(step);
        start = start != null ? start : previousEnd;
        Instant end = nextStart != null ? nextStart : runEnd;
        if (end.isBefore(start)) {
            end = start;
        }
        previousEnd = end;
        String model = step.path("model_name").asText(record.resolvedModel());
        Span chat = tracer.spanBuilder(GenAi.CHAT + " " + model).setParent(parent).setSpanKind(SpanKind.CLIENT)
                .setStartTimestamp(start).startSpan();
        chat.setAttribute(GenAi.OPERATION_NAME, GenAi.CHAT);
        chat.setAttribute(GenAi.PROVIDER_NAME, record.providerName());
        chat.setAttribute(GenAi.REQUEST_MODEL, record.resolvedModel());
        if (step.has("model_name")) {
            chat.setAttribute(GenAi.RESPONSE_MODEL, step.get("model_name").asText());
        }
        JsonNode m = step.path("metrics");
        if (m.path("prompt_tokens").isNumber()) {
            chat.setAttribute(GenAi.USAGE_INPUT_TOKENS, m.path("prompt_tokens").asLong());
        }
        if (m.path("completion_tokens").isNumber()) {
            chat.setAttribute(GenAi.USAGE_OUTPUT_TOKENS, m.path("completion_tokens").asLong());
        }
        if (m.path("cached_tokens").isNumber()) {
            chat.setAttribute(GenAi.USAGE_CACHE_READ, m.path("cached_tokens").asLong());
        }
        if (m.path("extra").path("cache_creation_input_tokens").isNumber()) {
            chat.setAttribute(GenAi.USAGE_CACHE_CREATION, m.path("extra").path("cache_creation_input_tokens").asLong());
        }
        if (m.path("cost_usd").isNumber()) {
            chat.setAttribute(GenAi.H4J_COST_USD, m.path("cost_usd").asDouble());
        }
        Context inChat = parent.with(chat);
        Instant toolStart = start.plus(java.time.Duration.between(start, end).dividedBy(2));
        for (JsonNode call : step.path("tool_calls")) {
            String name = call.path("function_name").asText();
            Span tool = tracer.spanBuilder(GenAi.EXECUTE_TOOL + " " + name).setParent(inChat)
                    .setSpanKind(SpanKind.INTERNAL).setStartTimestamp(toolStart).startSpan();
            tool.setAttribute(GenAi.OPERATION_NAME, GenAi.EXECUTE_TOOL);
            tool.setAttribute(GenAi.TOOL_NAME, name);
            tool.setAttribute(GenAi.TOOL_CALL_ID, call.path("tool_call_id").asText());
            tool.end(end);
        }
        chat.end(end);
    }
}
