package dev.harness4j.opencode;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.Execution;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * What {@code opencode run --format json} printed, folded into sums: one JSON event per line
 * ({@code step_start}, {@code text}, {@code tool_use}, {@code step_finish}, {@code reasoning},
 * {@code error}). Lines that are not JSON objects are counted and otherwise ignored.
 *
 * @param steps how many {@code step_finish} events carried tokens
 * @param input sum of {@code part.tokens.input} (opencode already excludes cache reads and writes)
 * @param output sum of {@code part.tokens.output} (opencode excludes reasoning tokens here)
 * @param reasoning sum of {@code part.tokens.reasoning}
 * @param cacheRead sum of {@code part.tokens.cache.read}
 * @param cacheWrite sum of {@code part.tokens.cache.write}
 * @param cost sum of {@code part.cost}
 * @param lastText the last non-blank, non-synthetic {@code text} event's text, or {@code null}
 * @param toolCalls how many {@code tool_use} events there were
 * @param errors the {@code error} events, in order
 * @param garbageLines lines that were not JSON objects
 */
record OpencodeEvents(
        int steps, long input, long output, long reasoning, long cacheRead, long cacheWrite, BigDecimal cost,
        String lastText, int toolCalls, List<ErrorEvent> errors, int garbageLines) {

    private static final ObjectMapper JSON = new ObjectMapper();

    OpencodeEvents {
        Objects.requireNonNull(cost, "cost");
        errors = List.copyOf(errors);
    }

    /**
     * One {@code error} event.
     *
     * @param name the error's {@code name}: {@code APIError}, {@code ProviderAuthError}, {@code
     *     ContextOverflowError}, {@code UnknownError}, ...
     * @param statusCode the HTTP status an {@code APIError} carries, or {@code null}
     * @param message {@code data.message}, or {@code null}
     * @param responseBody {@code data.responseBody}, or {@code null}
     * @param responseHeaders {@code data.responseHeaders}, lower-cased names
     * @param timestampMillis the event's {@code timestamp}, or {@code null}
     */
    record ErrorEvent(String name, Integer statusCode, String message, String responseBody,
            Map<String, String> responseHeaders, Long timestampMillis) {
        ErrorEvent {
            Objects.requireNonNull(name, "name");
            responseHeaders = Collections.unmodifiableMap(new LinkedHashMap<>(responseHeaders));
        }

        /** The message, else the name: what a reason line shows. */
        String describe() {
            String text = message == null || message.isBlank() ? name : name + ": " + message;
            return statusCode == null ? text : text + " (HTTP " + statusCode + ")";
        }
    }

    /** Reads an execution's stdout line by line, whatever its size. */
    static OpencodeEvents of(Execution execution) {
        Accumulator acc = new Accumulator();
        execution.forEachStdoutLine(acc::accept);
        return acc.result();
    }

    /** Reads the given lines (for tests). */
    static OpencodeEvents of(Iterable<String> lines) {
        Accumulator acc = new Accumulator();
        lines.forEach(acc::accept);
        return acc.result();
    }

    /** Folds events one line at a time. */
    private static final class Accumulator {
        private int steps;
        private long input;
        private long output;
        private long reasoning;
        private long cacheRead;
        private long cacheWrite;
        private BigDecimal cost = BigDecimal.ZERO;
        private String lastText;
        private int toolCalls;
        private final List<ErrorEvent> errors = new ArrayList<>();
        private int garbage;

        void accept(String raw) {
            String line = raw.strip();
            if (line.isEmpty()) {
                return;
            }
            JsonNode event;
            try {
                event = line.startsWith("{") ? JSON.readTree(line) : null;
            } catch (Exception e) { // a partial line, log noise: not an event
                event = null;
            }
            if (event == null || !event.isObject()) {
                garbage++;
                return;
            }
            JsonNode part = event.path("part");
            switch (event.path("type").asText("")) {
                case "step_finish" -> stepFinish(part);
                case "text" -> {
                    String text = part.path("text").asText("");
                    // synthetic parts are opencode's own words (e.g. after compacting), not the model's
                    if (!text.isBlank() && !part.path("synthetic").asBoolean(false)) {
                        lastText = text.strip();
                    }
                }
                case "tool_use" -> toolCalls++;
                case "error" -> errors.add(error(event));
                default -> { } // step_start, reasoning, and types a newer opencode adds
            }
        }

        private void stepFinish(JsonNode part) {
            JsonNode tokens = part.path("tokens");
            if (tokens.isObject()) {
                steps++;
                input += count(tokens.path("input"));
                output += count(tokens.path("output"));
                reasoning += count(tokens.path("reasoning"));
                cacheRead += count(tokens.path("cache").path("read"));
                cacheWrite += count(tokens.path("cache").path("write"));
            }
            JsonNode c = part.path("cost");
            if (c.isNumber() && c.decimalValue().signum() > 0) {
                cost = cost.add(c.decimalValue());
            }
        }

        private static long count(JsonNode n) {
            return n.isNumber() ? Math.max(0, n.asLong()) : 0;
        }

        private static ErrorEvent error(JsonNode event) {
            JsonNode error = event.path("error");
            JsonNode data = error.path("data");
            Integer status = data.path("statusCode").isNumber() ? data.path("statusCode").asInt() : null;
            Map<String, String> headers = new LinkedHashMap<>();
            data.path("responseHeaders").fields().forEachRemaining(
                    e -> headers.put(e.getKey().toLowerCase(Locale.ROOT), e.getValue().asText()));
            Long ts = event.path("timestamp").isNumber() ? event.path("timestamp").asLong() : null;
            return new ErrorEvent(error.path("name").asText("UnknownError"), status, text(data.path("message")),
                    text(data.path("responseBody")), headers, ts);
        }

        private static String text(JsonNode n) {
            return n.isValueNode() && !n.isNull() ? n.asText() : null;
        }

        OpencodeEvents result() {
            return new OpencodeEvents(steps, input, output, reasoning, cacheRead, cacheWrite, cost, lastText,
                    toolCalls, errors, garbage);
        }
    }
}
