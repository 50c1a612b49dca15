package dev.harness4j.core.internal.trajectory;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.harness4j.api.TokenUsage;
import dev.harness4j.api.TrajectoryStep;
import dev.harness4j.core.internal.capture.Redactor;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * Writes one ATIF v1.7 trajectory ({@code trajectory.json}) as it goes, with Jackson's streaming
 * generator: the root, the agent, then each step as it is handed over (none is kept), then notes,
 * {@code final_metrics} and {@code extra}. Every text goes through the run's {@link Redactor} and
 * is cut at {@link #MAX_TEXT_CHARS} with a {@linkplain #truncated marker}. Steps are numbered
 * from 1. Not thread-safe: one writer per file.
 *
 * <p>Token mapping (ATIF counts cached tokens inside {@code prompt_tokens}): {@code prompt_tokens}
 * = input + cache read + cache write, {@code completion_tokens} = output, {@code cached_tokens} =
 * cache read, and the cache-write tokens also in {@code metrics.extra.cache_creation_input_tokens}.
 * A figure not measured is left out, never 0.
 */
final class AtifWriter implements AutoCloseable {
    /** The version written in {@code schema_version}. */
    static final String SCHEMA_VERSION = "ATIF-v1.7";
    /** Characters of one message, reasoning, tool result or argument text kept: 64 Ki; the rest is cut with a marker. */
    static final int MAX_TEXT_CHARS = 64 * 1024;

    private final JsonGenerator out;
    private final ObjectMapper json;
    private final Redactor redactor;
    private int steps;
    private boolean inSteps;

    AtifWriter(OutputStream stream, ObjectMapper json, Redactor redactor) throws IOException {
        this.json = json;
        this.redactor = redactor;
        this.out = json.getFactory().createGenerator(stream);
        out.useDefaultPrettyPrinter();
    }

    /** The marker that replaces the part of a text past the cap. */
    static String truncated(int kept, int total) {
        return "\n[harness4j: truncated at " + kept + " of " + total + " characters]";
    }

    /** A text redacted, then cut at {@link #MAX_TEXT_CHARS} with a marker. */
    String text(String s) {
        String r = redactor.redact(s == null ? "" : s);
        return r.length() <= MAX_TEXT_CHARS ? r : r.substring(0, MAX_TEXT_CHARS) + truncated(MAX_TEXT_CHARS, r.length());
    }

    /** Writes the root's head and the agent; then {@link #step} for each step, then {@link #end}. */
    void begin(String sessionId, String agentName, String agentVersion, String model, ObjectNode agentExtra)
            throws IOException {
        out.writeStartObject();
        out.writeStringField("schema_version", SCHEMA_VERSION);
        out.writeStringField("session_id", sessionId);
        out.writeStringField("trajectory_id", sessionId);
        out.writeObjectFieldStart("agent");
        out.writeStringField("name", agentName);
        out.writeStringField("version", agentVersion == null || agentVersion.isBlank() ? "unknown" : agentVersion);
        if (model != null) {
            out.writeStringField("model_name", model);
        }
        if (agentExtra != null) {
            out.writeFieldName("extra");
            json.writeTree(out, agentExtra);
        }
        out.writeEndObject();
        out.writeArrayFieldStart("steps");
        inSteps = true;
    }

    /**
     * Writes one step; returns its id.
     *
     * @param llmCalls how many model calls the step stands for ({@code llm_call_count}), or null
     *     when the source does not say (an agent step only)
     */
    int step(TrajectoryStep s, ObjectNode extra, Integer llmCalls) throws IOException {
        steps++;
        out.writeStartObject();
        out.writeNumberField("step_id", steps);
        if (s.timestamp() != null) {
            out.writeStringField("timestamp", s.timestamp().toString());
        }
        out.writeStringField("source", s.source().name().toLowerCase(Locale.ROOT));
        if (s.source() == TrajectoryStep.Source.AGENT && s.model() != null) {
            out.writeStringField("model_name", s.model());
        }
        out.writeStringField("message", text(s.message()));
        if (s.source() == TrajectoryStep.Source.AGENT) {
            if (s.reasoning() != null && !s.reasoning().isEmpty()) {
                out.writeStringField("reasoning_content", text(s.reasoning()));
            }
            Set<String> ids = new HashSet<>();
            if (!s.toolCalls().isEmpty()) {
                out.writeArrayFieldStart("tool_calls");
                for (TrajectoryStep.ToolCall c : s.toolCalls()) {
                    ids.add(c.id());
                    out.writeStartObject();
                    out.writeStringField("tool_call_id", c.id());
                    out.writeStringField("function_name", c.name());
                    out.writeFieldName("arguments");
                    json.writeTree(out, arguments(c.arguments()));
                    out.writeEndObject();
                }
                out.writeEndArray();
            }
            writeResults(s, ids);
            writeMetrics(s.usage(), s.costUsd());
            if (llmCalls != null) {
                out.writeNumberField("llm_call_count", llmCalls);
            }
        } else {
            writeResults(s, null);
        }
        if (extra != null && !extra.isEmpty()) {
            out.writeFieldName("extra");
            json.writeTree(out, extra);
        }
        out.writeEndObject();
        return steps;
    }

    private void writeResults(TrajectoryStep s, Set<String> callIds) throws IOException {
        if (s.results().isEmpty()) {
            return;
        }
        out.writeObjectFieldStart("observation");
        out.writeArrayFieldStart("results");
        for (TrajectoryStep.ToolResult r : s.results()) {
            out.writeStartObject();
            if (callIds != null && callIds.contains(r.callId())) {
                out.writeStringField("source_call_id", r.callId());
            } else { // a result whose call is not in this step: kept, not correlated
                out.writeObjectFieldStart("extra");
                out.writeStringField("call_id", r.callId());
                out.writeEndObject();
            }
            out.writeStringField("content", text(r.content()));
            out.writeEndObject();
        }
        out.writeEndArray();
        out.writeEndObject();
    }

    /** The arguments as a JSON object: parsed when they are one (and small enough), else wrapped. */
    private JsonNode arguments(String text) {
        String r = redactor.redact(text);
        if (r.length() <= MAX_TEXT_CHARS) {
            try {
                JsonNode n = json.readTree(r);
                if (n != null && n.isObject()) {
                    return n;
                }
            } catch (IOException e) {
                // not JSON: wrapped below
            }
        }
        ObjectNode o = json.createObjectNode();
        o.put("input", text(r));
        return o;
    }

    private void writeMetrics(TokenUsage u, BigDecimal cost) throws IOException {
        Long prompt = u == null ? null : prompt(u);
        boolean any = u != null && (prompt != null || u.output() != null || u.cacheRead() != null);
        if (!any && cost == null) {
            return;
        }
        out.writeObjectFieldStart("metrics");
        if (prompt != null) {
            out.writeNumberField("prompt_tokens", prompt);
        }
        if (u != null && u.output() != null) {
            out.writeNumberField("completion_tokens", u.output());
        }
        if (u != null && u.cacheRead() != null) {
            out.writeNumberField("cached_tokens", u.cacheRead());
        }
        if (cost != null) {
            out.writeNumberField("cost_usd", cost.doubleValue());
        }
        if (u != null && u.cacheWrite() != null) {
            out.writeObjectFieldStart("extra");
            out.writeNumberField("cache_creation_input_tokens", u.cacheWrite());
            out.writeEndObject();
        }
        out.writeEndObject();
    }

    /** ATIF's prompt tokens: input + cache read + cache write; null when the input is unknown. */
    static Long prompt(TokenUsage u) {
        if (u.input() == null) {
            return null;
        }
        return u.input() + (u.cacheRead() == null ? 0 : u.cacheRead()) + (u.cacheWrite() == null ? 0 : u.cacheWrite());
    }

    /** Ends the steps and writes notes, the final metrics (from {@code tokens} and {@code cost}) and {@code extra}. */
    void end(String notes, TokenUsage tokens, BigDecimal cost, ObjectNode extra) throws IOException {
        out.writeEndArray();
        inSteps = false;
        if (notes != null && !notes.isEmpty()) {
            out.writeStringField("notes", text(notes));
        }
        out.writeObjectFieldStart("final_metrics");
        Long prompt = tokens == null ? null : prompt(tokens);
        if (prompt != null) {
            out.writeNumberField("total_prompt_tokens", prompt);
        }
        if (tokens != null && tokens.output() != null) {
            out.writeNumberField("total_completion_tokens", tokens.output());
        }
        if (tokens != null && tokens.cacheRead() != null) {
            out.writeNumberField("total_cached_tokens", tokens.cacheRead());
        }
        if (cost != null) {
            out.writeNumberField("total_cost_usd", cost.doubleValue());
        }
        out.writeNumberField("total_steps", steps);
        if (tokens != null && tokens.cacheWrite() != null) {
            out.writeObjectFieldStart("extra");
            out.writeNumberField("total_cache_creation_input_tokens", tokens.cacheWrite());
            out.writeEndObject();
        }
        out.writeEndObject();
        if (extra != null) {
            out.writeFieldName("extra");
            json.writeTree(out, extra);
        }
        out.writeEndObject();
    }

    /** Whether steps are still being written (end not reached). */
    boolean open() {
        return inSteps;
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
