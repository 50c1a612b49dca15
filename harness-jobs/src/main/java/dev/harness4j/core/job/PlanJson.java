package dev.harness4j.core.job;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.harness4j.api.Limits;
import dev.harness4j.core.internal.McpServersJson;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A {@link JobPlan} as JSON: the plan file of {@code harness4j job run} and the {@code plan} of a
 * checkpoint. Unknown fields are refused, every problem listed:
 *
 * <pre>{@code
 * {"baseline": "../app", "ref": "main", "harness": "claude-code", "provider": "anthropic",
 *  "model": "claude-sonnet-4-5", "max_quota_wait_seconds": 900, "push": false, "task": "importer",
 *  "phases": [
 *    {"id": "design", "prompt": "Write PLAN.md"},
 *    {"id": "build", "prompt": "Implement PLAN.md", "depends_on": ["design"], "max_attempts": 2,
 *     "fallbacks": [{"provider": "openrouter", "model": "anthropic/claude-sonnet-4.5"}],
 *     "limits": {"max_runtime_seconds": 1800, "inactivity_timeout_seconds": 300, "max_turns": 50,
 *                "max_tokens": 2000000, "max_cost_usd": 5.0, "max_model_requests": 400},
 *     "options": {}, "mcp_servers": [{"name": "tickets", "command": "tickets-mcp", "args": ["--ro"]}]}]}
 * }</pre>
 */
final class PlanJson {
    private static final Set<String> PLAN_FIELDS = Set.of("id", "baseline", "ref", "harness", "provider", "model",
            "max_quota_wait_seconds", "push", "task", "phases", "health_check", "health_check_timeout_seconds");
    private static final Set<String> PHASE_FIELDS = Set.of("id", "prompt", "harness", "provider", "model",
            "depends_on", "fallbacks", "max_attempts", "limits", "options",
            "continue_session", "mcp_servers");
    private static final Set<String> FALLBACK_FIELDS = Set.of("provider", "model");
    private static final Set<String> LIMIT_FIELDS = Set.of("max_runtime_seconds", "inactivity_timeout_seconds",
            "max_turns", "max_tokens", "max_cost_usd", "max_model_requests");

    private PlanJson() {}

    /** The plan as JSON; the baseline as an absolute path. */
    static ObjectNode write(JobPlan plan) {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        putIf(n, "id", plan.id());
        n.put("baseline", plan.baseline().toAbsolutePath().normalize().toString());
        putIf(n, "ref", plan.ref());
        putIf(n, "harness", plan.harness());
        putIf(n, "provider", plan.provider());
        putIf(n, "model", plan.model());
        n.put("max_quota_wait_seconds", plan.maxQuotaWait().toSeconds());
        n.put("push", plan.push());
        putIf(n, "task", plan.task());
        n.put("health_check", plan.healthCheckTimeout() != null);
        if (plan.healthCheckTimeout() != null) {
            n.put("health_check_timeout_seconds", plan.healthCheckTimeout().toMillis() / 1000.0);
        }
        ArrayNode phases = n.putArray("phases");
        for (PhaseSpec p : plan.phases()) {
            ObjectNode o = phases.addObject();
            o.put("id", p.id());
            o.put("prompt", p.prompt());
            putIf(o, "harness", p.harness());
            putIf(o, "provider", p.provider());
            putIf(o, "model", p.model());
            ArrayNode deps = o.putArray("depends_on");
            p.dependsOn().forEach(deps::add);
            ArrayNode fb = o.putArray("fallbacks");
            for (PhaseSpec.Fallback f : p.fallbacks()) {
                ObjectNode x = fb.addObject();
                x.put("provider", f.provider());
                putIf(x, "model", f.model());
            }
            o.put("max_attempts", p.maxAttempts());
            if (p.continueSession()) {
                o.put("continue_session", true);
            }
            ObjectNode l = o.putObject("limits");
            if (p.limits().maxRuntime() != null) {
                l.put("max_runtime_seconds", p.limits().maxRuntime().toSeconds());
            }
            if (p.limits().inactivityTimeout() != null) {
                l.put("inactivity_timeout_seconds", p.limits().inactivityTimeout().toSeconds());
            }
            if (p.limits().maxTurns() != null) {
                l.put("max_turns", p.limits().maxTurns());
            }
            if (p.limits().maxTokens() != null) {
                l.put("max_tokens", p.limits().maxTokens());
            }
            if (p.limits().maxCostUsd() != null) {
                l.put("max_cost_usd", p.limits().maxCostUsd());
            }
            if (p.limits().maxModelRequests() != null) {
                l.put("max_model_requests", p.limits().maxModelRequests());
            }
            ObjectNode opts = o.putObject("options");
            p.options().forEach(opts::put);
            if (!p.mcpServers().isEmpty()) {
                o.set("mcp_servers", McpServersJson.toJson(p.mcpServers()));
            }
        }
        return n;
    }

    private static void putIf(ObjectNode n, String key, String value) {
        if (value != null) {
            n.put(key, value);
        }
    }

    /**
     * Reads a plan.
     *
     * @param relativeTo the directory a relative {@code baseline} is resolved against
     * @throws InvalidJobPlanException listing every problem (unknown fields, wrong types, and
     *     what {@link JobPlan.Builder#build()} refuses)
     */
    static JobPlan read(JsonNode n, Path relativeTo) {
        List<String> problems = new ArrayList<>();
        if (n == null || !n.isObject()) {
            throw new InvalidJobPlanException(List.of("a job plan must be a JSON object"));
        }
        unknown(n, PLAN_FIELDS, "the plan", problems);
        String baseline = text(n, "baseline", "the plan", problems);
        if (baseline == null) {
            problems.add("the plan has no \"baseline\" (the repository the job starts from)");
            throw new InvalidJobPlanException(problems);
        }
        JobPlan.Builder b = JobPlan.builder(relativeTo.resolve(baseline).toAbsolutePath().normalize())
                .id(text(n, "id", "the plan", problems)).ref(text(n, "ref", "the plan", problems))
                .harness(text(n, "harness", "the plan", problems)).provider(text(n, "provider", "the plan", problems))
                .model(text(n, "model", "the plan", problems)).task(text(n, "task", "the plan", problems));
        if (n.has("max_quota_wait_seconds")) {
            JsonNode w = n.get("max_quota_wait_seconds");
            if (w.canConvertToLong() && w.asLong() >= 0) {
                b.maxQuotaWait(Duration.ofSeconds(w.asLong()));
            } else {
                problems.add("\"max_quota_wait_seconds\" must be a number of seconds, at least 0");
            }
        }
        if (n.has("push")) {
            if (n.get("push").isBoolean()) {
                b.push(n.get("push").asBoolean());
            } else {
                problems.add("\"push\" must be true or false");
            }
        }
        if (n.has("health_check_timeout_seconds")) {
            JsonNode t = n.get("health_check_timeout_seconds");
            if (t.isNumber() && t.asDouble() > 0) {
                b.healthCheckTimeout(Duration.ofMillis(Math.round(t.asDouble() * 1000)));
            } else {
                problems.add("\"health_check_timeout_seconds\" must be a number of seconds above 0");
            }
        }
        if (n.has("health_check")) {
            if (n.get("health_check").isBoolean()) {
                b.healthCheck(n.get("health_check").asBoolean());
            } else {
                problems.add("\"health_check\" must be true or false");
            }
        }
        JsonNode phases = n.get("phases");
        if (phases == null || !phases.isArray()) {
            problems.add("the plan needs \"phases\": an array of {\"id\", \"prompt\", ...}");
        } else {
            int i = 0;
            for (JsonNode p : phases) {
                phase(p, "phase #" + (++i), b, problems);
            }
        }
        try {
            JobPlan plan = b.build();
            if (problems.isEmpty()) {
                return plan;
            }
        } catch (InvalidJobPlanException e) {
            problems.addAll(e.problems()); // one exception with every problem, the file's and the plan's
        }
        throw new InvalidJobPlanException(problems);
    }

    private static void phase(JsonNode p, String where, JobPlan.Builder plan, List<String> problems) {
        if (!p.isObject()) {
            problems.add(where + " must be an object");
            return;
        }
        unknown(p, PHASE_FIELDS, where, problems);
        String id = text(p, "id", where, problems);
        String prompt = text(p, "prompt", where, problems);
        if (id == null || prompt == null) {
            problems.add(where + " needs an \"id\" and a \"prompt\"");
            return;
        }
        where = "phase " + id;
        PhaseSpec.Builder b = PhaseSpec.builder(id, prompt).harness(text(p, "harness", where, problems))
                .provider(text(p, "provider", where, problems)).model(text(p, "model", where, problems));
        for (JsonNode d : array(p, "depends_on", where, problems)) {
            if (d.isTextual()) {
                b.dependsOn(d.asText());
            } else {
                problems.add(where + ": \"depends_on\" must hold phase ids");
            }
        }
        for (JsonNode f : array(p, "fallbacks", where, problems)) {
            if (!f.isObject()) {
                problems.add(where + ": each fallback must be {\"provider\", \"model\"}");
                continue;
            }
            unknown(f, FALLBACK_FIELDS, where + "'s fallback", problems);
            String provider = text(f, "provider", where + "'s fallback", problems);
            if (provider == null || provider.isBlank()) {
                problems.add(where + ": a fallback needs a \"provider\"");
            } else {
                b.fallback(provider, text(f, "model", where + "'s fallback", problems));
            }
        }
        if (p.has("max_attempts")) {
            JsonNode m = p.get("max_attempts");
            if (m.canConvertToInt() && m.isIntegralNumber() && m.asInt() >= 1) {
                b.maxAttempts(m.asInt());
            } else {
                problems.add(where + ": \"max_attempts\" must be a whole number, at least 1");
            }
        }
        if (p.has("mcp_servers")) {
            try {
                if (!p.get("mcp_servers").isArray()) {
                    throw new IllegalArgumentException("must be an array of {\"name\", \"command\", \"args\", \"env\"}"
                            + " or {\"name\", \"url\"}");
                }
                McpServersJson.fromJson(p.get("mcp_servers")).forEach(b::mcpServer);
            } catch (IllegalArgumentException e) {
                problems.add(where + ": \"mcp_servers\" " + e.getMessage());
            }
        }
        if (p.has("continue_session")) {
            if (p.get("continue_session").isBoolean()) {
                b.continueSession(p.get("continue_session").asBoolean());
            } else {
                problems.add(where + ": \"continue_session\" must be true or false");
            }
        }
        JsonNode l = p.get("limits");
        if (l != null && !l.isNull()) {
            limits(l, where, b, problems);
        }
        JsonNode o = p.get("options");
        if (o != null && !o.isNull()) {
            if (!o.isObject()) {
                problems.add(where + ": \"options\" must be an object of strings");
            } else {
                for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext();) {
                    Map.Entry<String, JsonNode> e = it.next();
                    if (e.getValue().isTextual()) {
                        b.option(e.getKey(), e.getValue().asText());
                    } else {
                        problems.add(where + ": option \"" + e.getKey() + "\" must be a string");
                    }
                }
            }
        }
        plan.phase(b.build());
    }

    private static void limits(JsonNode l, String where, PhaseSpec.Builder b, List<String> problems) {
        if (!l.isObject()) {
            problems.add(where + ": \"limits\" must be an object");
            return;
        }
        unknown(l, LIMIT_FIELDS, where + "'s limits", problems);
        Duration runtime = seconds(l, "max_runtime_seconds", where, problems);
        Duration inactivity = seconds(l, "inactivity_timeout_seconds", where, problems);
        Long turns = whole(l, "max_turns", where, problems);
        Long tokens = whole(l, "max_tokens", where, problems);
        Long requests = whole(l, "max_model_requests", where, problems);
        java.math.BigDecimal cost = null;
        if (l.has("max_cost_usd")) {
            if (l.get("max_cost_usd").isNumber() && l.get("max_cost_usd").decimalValue().signum() > 0) {
                cost = l.get("max_cost_usd").decimalValue();
            } else {
                problems.add(where + ": \"max_cost_usd\" must be a number above 0");
            }
        }
        b.limits(new Limits(inactivity, runtime, turns != null ? Math.toIntExact(turns) : null, tokens, cost,
                requests != null ? Math.toIntExact(requests) : null));
    }

    private static Long whole(JsonNode n, String field, String where, List<String> problems) {
        if (!n.has(field)) {
            return null;
        }
        JsonNode v = n.get(field);
        if (v.isIntegralNumber() && v.canConvertToInt() && v.asInt() >= 1) {
            return v.asLong();
        }
        problems.add(where + ": \"" + field + "\" must be a whole number, at least 1");
        return null;
    }

    private static Duration seconds(JsonNode n, String field, String where, List<String> problems) {
        if (!n.has(field)) {
            return null;
        }
        JsonNode v = n.get(field);
        if (v.isIntegralNumber() && v.asLong() > 0) {
            return Duration.ofSeconds(v.asLong());
        }
        problems.add(where + ": \"" + field + "\" must be a whole number of seconds, above 0");
        return null;
    }

    private static Iterable<JsonNode> array(JsonNode n, String field, String where, List<String> problems) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            return List.of();
        }
        if (!v.isArray()) {
            problems.add(where + ": \"" + field + "\" must be an array");
            return List.of();
        }
        return v;
    }

    private static String text(JsonNode n, String field, String where, List<String> problems) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isTextual()) {
            problems.add(where + ": \"" + field + "\" must be a string");
            return null;
        }
        return v.asText();
    }

    private static void unknown(JsonNode n, Set<String> known, String where, List<String> problems) {
        for (Iterator<String> it = n.fieldNames(); it.hasNext();) {
            String f = it.next();
            if (!known.contains(f)) {
                problems.add(where + " has an unknown field \"" + f + "\" (known: " + new java.util.TreeSet<>(known) + ")");
            }
        }
    }
}
