package dev.harness4j.claude;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The fields harness4j reads from Claude Code's result envelope, the JSON object with {@code
 * "type": "result"} that {@code claude -p --output-format json} prints last. Absent figures are
 * {@code null}, never 0.
 *
 * @param subtype {@code success}, {@code error_max_turns}, {@code error_during_execution}, ...
 * @param isError the envelope's {@code is_error}
 * @param apiErrorStatus the HTTP status of a failed model call, or {@code null}
 * @param result the final text (the agent's last message, or the error text), or {@code null}
 * @param errors the {@code errors[]} texts of error subtypes
 * @param terminalReason why the agent loop ended (e.g. {@code completed}, {@code max_turns},
 *     {@code prompt_too_long}), or {@code null}
 * @param numTurns agent turns taken, or {@code null}
 * @param totalCostUsd the CLI's own cost estimate, or {@code null}
 * @param inputTokens {@code usage.input_tokens}
 * @param outputTokens {@code usage.output_tokens}
 * @param cacheReadTokens {@code usage.cache_read_input_tokens}
 * @param cacheWriteTokens {@code usage.cache_creation_input_tokens}
 * @param modelUsageKeys the keys of {@code modelUsage}: the models Claude Code <em>asked</em>
 *     for (not necessarily those that answered; see {@link AnsweringModels})
 * @param sessionId the envelope's {@code session_id} (what {@code --resume} continues), or {@code null}
 */
record ResultEnvelope(
        String subtype,
        boolean isError,
        Integer apiErrorStatus,
        String result,
        List<String> errors,
        String terminalReason,
        Integer numTurns,
        BigDecimal totalCostUsd,
        Long inputTokens,
        Long outputTokens,
        Long cacheReadTokens,
        Long cacheWriteTokens,
        List<String> modelUsageKeys,
        String sessionId) {

    /**
     * How much of stdout's end is searched for the envelope: 16 MiB. The envelope is printed
     * last and holds the final message, so it fits unless the agent's answer is enormous.
     */
    static final int SCAN_BYTES = 16 * 1024 * 1024;

    private static final ObjectMapper JSON = JsonMapper.builder().build();

    ResultEnvelope {
        errors = List.copyOf(errors);
        modelUsageKeys = List.copyOf(modelUsageKeys);
    }

    /** All error texts in one string: {@code result} and {@code errors[]}. */
    String errorText() {
        StringBuilder sb = new StringBuilder();
        if (result != null) {
            sb.append(result);
        }
        for (String e : errors) {
            if (sb.length() > 0) {
                sb.append('\n');
            }
            sb.append(e);
        }
        return sb.toString();
    }

    /**
     * Finds the envelope in the tail of some output: the last line that is a JSON object with
     * {@code "type": "result"}; failing that, the whole tail as one JSON value (a pretty-printed
     * object, or the message array {@code --verbose} prints, whose last result element wins).
     */
    static Optional<ResultEnvelope> find(String outputTail) {
        String[] lines = outputTail.split("\n");
        for (int i = lines.length - 1; i >= 0; i--) {
            String line = lines[i].trim();
            if (line.startsWith("{") && line.contains("\"result\"")) {
                Optional<ResultEnvelope> e = parse(line);
                if (e.isPresent()) {
                    return e;
                }
            }
        }
        int start = firstJsonStart(outputTail);
        return start < 0 ? Optional.empty() : parse(outputTail.substring(start));
    }

    /** Parses one JSON text; empty when it is not JSON or holds no result envelope. */
    static Optional<ResultEnvelope> parse(String json) {
        JsonNode node;
        try {
            node = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            return Optional.empty();
        }
        if (node != null && node.isArray()) {
            for (int i = node.size() - 1; i >= 0; i--) {
                if (isResult(node.get(i))) {
                    return Optional.of(of(node.get(i)));
                }
            }
            return Optional.empty();
        }
        return isResult(node) ? Optional.of(of(node)) : Optional.empty();
    }

    private static int firstJsonStart(String text) {
        int obj = text.indexOf("\n{");
        int arr = text.indexOf("\n[");
        if (text.startsWith("{") || text.startsWith("[")) {
            return 0;
        }
        if (obj < 0) {
            return arr < 0 ? -1 : arr + 1;
        }
        return arr < 0 ? obj + 1 : Math.min(obj, arr) + 1;
    }

    private static boolean isResult(JsonNode node) {
        return node != null && node.isObject() && "result".equals(node.path("type").asText(null));
    }

    private static ResultEnvelope of(JsonNode n) {
        JsonNode usage = n.path("usage");
        List<String> errors = new ArrayList<>();
        for (JsonNode e : n.path("errors")) {
            errors.add(e.isTextual() ? e.asText() : e.toString());
        }
        List<String> models = new ArrayList<>();
        n.path("modelUsage").fieldNames().forEachRemaining(models::add);
        JsonNode cost = n.path("total_cost_usd");
        return new ResultEnvelope(
                text(n, "subtype"),
                n.path("is_error").asBoolean(false),
                n.path("api_error_status").isNumber() ? n.path("api_error_status").asInt() : null,
                text(n, "result"),
                errors,
                text(n, "terminal_reason"),
                n.path("num_turns").isNumber() ? n.path("num_turns").asInt() : null,
                cost.isNumber() ? cost.decimalValue() : null,
                count(usage, "input_tokens"),
                count(usage, "output_tokens"),
                count(usage, "cache_read_input_tokens"),
                count(usage, "cache_creation_input_tokens"),
                models,
                text(n, "session_id"));
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.isTextual() ? v.asText() : v.toString();
    }

    private static Long count(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v != null && v.isIntegralNumber() && v.asLong() >= 0 ? v.asLong() : null;
    }
}
