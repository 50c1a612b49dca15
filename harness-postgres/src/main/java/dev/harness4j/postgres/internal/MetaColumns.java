package dev.harness4j.postgres.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;

/**
 * The columns of a result row, read from a run's {@code meta.json} as harness-bench's summary
 * reads it (model falls back to the resolved model, trial to 1, a branch that was not pushed
 * becomes {@code not pushed: <error>}). Tolerant: a field of the wrong type is absent.
 *
 * @param rewards {@code verify.rewards}'s numbers as a JSON object, or {@code null} when it has none
 */
public record MetaColumns(String harness, String provider, String model, String task, String outcome, String reason,
        int trial, Long durationMs, Long filesChanged, Long insertions, Long deletions, Long tokensIn,
        Long tokensOut, String tokenSource, BigDecimal costUsd, String costSource, String servedVerdict,
        String branch, String verifyStatus, Double reward, String rewards) {

    /**
     * The columns of one meta.json.
     *
     * @throws IllegalArgumentException when it has no harness or no outcome (not a finished run's meta)
     */
    public static MetaColumns of(JsonNode m) {
        String harness = text(m, "harness");
        String outcome = text(m, "outcome");
        if (harness == null || outcome == null) {
            throw new IllegalArgumentException("meta.json has no " + (harness == null ? "harness" : "outcome"));
        }
        String model = text(m, "model");
        Long trial = number(m, "trial");
        JsonNode changes = m.path("changes");
        JsonNode tokens = m.path("tokens");
        JsonNode cost = m.path("cost");
        JsonNode verify = m.path("verify");
        JsonNode b = m.get("branch");
        String branch = null;
        if (b != null && b.isObject()) {
            branch = b.path("pushed").asBoolean(false) ? text(b, "name")
                    : "not pushed" + (text(b, "error") == null ? "" : ": " + text(b, "error"));
        }
        JsonNode usd = cost.get("usd");
        JsonNode reward = verify.get("reward");
        return new MetaColumns(harness, text(m, "provider"), model != null ? model : text(m, "resolved_model"),
                text(m, "task"), outcome, text(m, "reason"), trial == null || trial < 1 ? 1 : trial.intValue(),
                number(m, "duration_ms"), number(changes, "files_changed"), number(changes, "insertions"),
                number(changes, "deletions"), number(tokens, "input"), number(tokens, "output"),
                text(tokens, "source"), usd != null && usd.isNumber() ? usd.decimalValue() : null,
                text(cost, "source"), text(m.path("served_model"), "verdict"), branch, text(verify, "status"),
                reward != null && reward.isNumber() ? reward.doubleValue() : null, rewards(verify.get("rewards")));
    }

    /** The numeric fields of {@code verify.rewards} as a JSON object, or {@code null} when there are none. */
    private static String rewards(JsonNode n) {
        if (n == null || !n.isObject()) {
            return null;
        }
        com.fasterxml.jackson.databind.node.ObjectNode out = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance
                .objectNode();
        n.fields().forEachRemaining(e -> {
            if (e.getValue().isNumber()) {
                out.put(e.getKey(), e.getValue().doubleValue());
            }
        });
        return out.isEmpty() ? null : out.toString();
    }

    /**
     * The metrics of a {@link #rewards} column's JSON text, in its order; empty for {@code null}.
     *
     * @throws IllegalArgumentException when the text is not a JSON object (the column holds only what {@link #of} wrote)
     */
    public static java.util.Map<String, Double> rewards(String json) {
        if (json == null) {
            return java.util.Map.of();
        }
        java.util.Map<String, Double> out = new java.util.LinkedHashMap<>();
        try {
            Jsons.read(json).fields().forEachRemaining(e -> {
                if (e.getValue().isNumber()) {
                    out.put(e.getKey(), e.getValue().doubleValue());
                }
            });
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("the rewards column holds no JSON object: " + e.getOriginalMessage(), e);
        }
        return out;
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v != null && v.isTextual() ? v.asText() : null;
    }

    private static Long number(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v != null && v.isIntegralNumber() ? v.longValue() : null;
    }
}
