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
 * <p>Each token sum is {@code null} when no {@code step_finish} carried that figure: a missing
 * figure is not 0.
 *
 * @param steps how many {@code step_finish} events carried tokens
 * @param input sum of {@code part.tokens.input} (opencode already excludes cache reads and writes), or {@code null}
 * @param output sum of {@code part.tokens.output} (opencode excludes reasoning tokens here), or {@code null}
 * @param reasoning sum of {@code part.tokens.reasoning}, or {@code null}
 * @param cacheRead sum of {@code part.tokens.cache.read}, or {@code null}
 * @param cacheWrite sum of {@code part.tokens.cache.write}, or {@code null}
 * @param cost sum of {@code part.cost}
 * @param lastText the last non-blank, non-synthetic {@code text} event's text, or {@code null}
 * @param toolCalls how many {@code tool_use} events there were
 * @param errors the {@code error} events, in order
 * @param garbageLines lines that were not JSON objects
 * @param sessionId the events' {@code sessionID} (the session a follow-up continues), or {@code null}
 */
record OpencodeEvents(
        int steps, Long input, Long output, Long reasoning, Long cacheRead, Long cacheWrite, BigDecimal cost,
        String lastText, int toolCalls, List<ErrorEvent> errors, int garbageLines, String sessionId) {

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
     * @param retryable {@code data.isRetryable}: whether opencode judged the failure passing (it
     *     says so for a dropped connection, which has no status code), or {@code null}
     */
    record ErrorEvent(String name, Integer statusCode, String message, String responseBody,
            Map<String, String> responseHeaders, Long timestampMillis, Boolean retryable) {
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
        private Long input;
        private Long output;
        private Long reasoning;
        private Long cacheRead;
        private Long cacheWrite;
        private BigDecimal cost = BigDecimal.ZERO;
        private String lastText;
        private int toolCalls;
        private final List<ErrorEvent> errors = new ArrayList<>();
        private int garbage;
        private String sessionId;

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
            if (sessionId == null && event.path("sessionID").isTextual()) {
                sessionId = event.path("sessionID").asText();
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
                input = add(input, tokens.path("input"));
                output = add(output, tokens.path("output"));
                reasoning = add(reasoning, tokens.path("reasoning"));
                cacheRead = add(cacheRead, tokens.path("cache").path("read"));
                cacheWrite = add(cacheWrite, tokens.path("cache").path("write"));
            }
            JsonNode c = part.path("cost");
            if (c.isNumber() && c.decimalValue().signum() > 0) {
                cost = cost.add(c.decimalValue());
            }
        }

        /** The sum so far plus one figure; a missing figure leaves it as it was ({@code null} if none yet). */
        private static Long add(Long sum, JsonNode n) {
            if (!n.isNumber()) {
                return sum;
            }
            long v = Math.max(0, n.asLong());
            return sum == null ? v : sum + v;
        }

        private static ErrorEvent error(JsonNode event) {
            JsonNode error = event.path("error");
            JsonNode data = error.path("data");
            Integer status = data.path("statusCode").isNumber() ? data.path("statusCode").asInt() : null;
            Map<String, String> headers = new LinkedHashMap<>();
            data.path("responseHeaders").fields().forEachRemaining(
                    e -> headers.put(e.getKey().toLowerCase(Locale.ROOT), e.getValue().asText()));
            Long ts = event.path("timestamp").isNumber() ? event.path("timestamp").asLong() : null;
            Boolean retryable = data.path("isRetryable").isBoolean() ? data.path("isRetryable").asBoolean() : null;
            return new ErrorEvent(error.path("name").asText("UnknownError"), status, text(data.path("message")),
                    text(data.path("responseBody")), headers, ts, retryable);
        }

        private static String text(JsonNode n) {
            return n.isValueNode() && !n.isNull() ? n.asText() : null;
        }

        OpencodeEvents result() {
            return new OpencodeEvents(steps, input, output, reasoning, cacheRead, cacheWrite, cost, lastText,
                    toolCalls, errors, garbage, sessionId);
        }
    }
}
