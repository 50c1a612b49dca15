package dev.harness4j.postgres.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;

/**
 * The columns of a result row, read from a run's {@code meta.json} as harness-bench's summary
 * reads it (model falls back to the resolved model, trial to 1, a branch that was not pushed
 * becomes {@code not pushed: <error>}). Tolerant: a field of the wrong type is absent.
 */
public record MetaColumns(String harness, String provider, String model, String task, String outcome, String reason,
        int trial, Long durationMs, Long filesChanged, Long insertions, Long deletions, Long tokensIn,
        Long tokensOut, String tokenSource, BigDecimal costUsd, String costSource, String servedVerdict,
        String branch, String verifyStatus, Double reward) {

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
                reward != null && reward.isNumber() ? reward.doubleValue() : null);
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
