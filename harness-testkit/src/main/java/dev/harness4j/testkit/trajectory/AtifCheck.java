package dev.harness4j.testkit.trajectory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * Checks a trajectory document against the ATIF v1.7 rules as the specification (Harbor RFC 0001)
 * words them: required and typed root, agent, step, tool-call, observation and metrics fields;
 * {@code step_id}s sequential from 1; {@code source} one of system, user, agent; agent-only
 * fields only on agent steps; each observation's {@code source_call_id} naming a tool call of
 * its step; {@code cached_tokens} within {@code prompt_tokens}; {@code llm_call_count} 0 without
 * metrics or reasoning; ISO 8601 timestamps; no field the schema does not define. Returns every
 * violation found, so a test shows them all at once.
 *
 * <pre>{@code
 * assertThat(AtifCheck.violations(result.resultDir().resolve("trajectory.json"))).isEmpty();
 * }</pre>
 */
public final class AtifCheck {
    /** The schema version this check is for. */
    public static final String VERSION = "ATIF-v1.7";

    private static final Set<String> ROOT = Set.of("schema_version", "session_id", "trajectory_id", "agent", "steps",
            "notes", "final_metrics", "continued_trajectory_ref", "extra", "subagent_trajectories");
    private static final Set<String> AGENT = Set.of("name", "version", "model_name", "tool_definitions", "extra");
    private static final Set<String> FINAL = Set.of("total_prompt_tokens", "total_completion_tokens",
            "total_cached_tokens", "total_cost_usd", "total_steps", "extra");
    private static final Set<String> STEP = Set.of("step_id", "timestamp", "source", "model_name", "reasoning_effort",
            "message", "reasoning_content", "tool_calls", "observation", "metrics", "extra", "llm_call_count",
            "is_copied_context");
    private static final Set<String> AGENT_ONLY = Set.of("model_name", "reasoning_effort", "reasoning_content",
            "tool_calls", "metrics");
    private static final Set<String> CALL = Set.of("tool_call_id", "function_name", "arguments", "extra");
    private static final Set<String> RESULT = Set.of("source_call_id", "content", "subagent_trajectory_ref", "extra");
    private static final Set<String> METRICS = Set.of("prompt_tokens", "completion_tokens", "cached_tokens",
            "cost_usd", "prompt_token_ids", "completion_token_ids", "logprobs", "extra");

    private AtifCheck() {}

    /** The violations of the file's document; empty when it is valid ATIF v1.7. */
    public static List<String> violations(Path file) throws IOException {
        return violations(new ObjectMapper().readTree(file.toFile()));
    }

    /** The violations of a parsed document; empty when it is valid ATIF v1.7. */
    public static List<String> violations(JsonNode root) {
        List<String> v = new ArrayList<>();
        if (root == null || !root.isObject()) {
            v.add("root: not an object");
            return v;
        }
        known(root, ROOT, "root", v);
        if (!VERSION.equals(root.path("schema_version").asText(null))) {
            v.add("schema_version: expected " + VERSION + ", was " + root.get("schema_version"));
        }
        optionalString(root, "session_id", "root", v);
        optionalString(root, "trajectory_id", "root", v);
        optionalString(root, "notes", "root", v);
        optionalString(root, "continued_trajectory_ref", "root", v);
        optionalObject(root, "extra", "root", v);
        JsonNode agent = root.get("agent");
        if (agent == null || !agent.isObject()) {
            v.add("agent: required object missing");
        } else {
            known(agent, AGENT, "agent", v);
            requiredString(agent, "name", "agent", v);
            requiredString(agent, "version", "agent", v);
            optionalString(agent, "model_name", "agent", v);
            optionalObject(agent, "extra", "agent", v);
            if (agent.has("tool_definitions") && !agent.get("tool_definitions").isArray()) {
                v.add("agent.tool_definitions: not an array");
            }
        }
        JsonNode fm = root.get("final_metrics");
        if (fm != null) {
            if (!fm.isObject()) {
                v.add("final_metrics: not an object");
            } else {
                known(fm, FINAL, "final_metrics", v);
                for (String f : List.of("total_prompt_tokens", "total_completion_tokens", "total_cached_tokens",
                        "total_steps")) {
                    optionalCount(fm, f, "final_metrics", v);
                }
                optionalNumber(fm, "total_cost_usd", "final_metrics", v);
                optionalObject(fm, "extra", "final_metrics", v);
            }
        }
        JsonNode steps = root.get("steps");
        if (steps == null || !steps.isArray()) {
            v.add("steps: required array missing");
            return v;
        }
        int expected = 1;
        for (JsonNode s : steps) {
            step(s, expected, v);
            expected++;
        }
        return v;
    }

    /**
     * The shape of a trajectory's agent steps, one string per step: {@code "agent"}, each tool
     * call's function name, and how many observation results it has ({@code "agent Bash
     * results=1"}); for comparing trajectories of one scenario from different sources.
     */
    public static List<String> agentShape(JsonNode root) {
        List<String> out = new ArrayList<>();
        for (JsonNode s : root.path("steps")) {
            if (!"agent".equals(s.path("source").asText())) {
                continue;
            }
            StringBuilder sb = new StringBuilder("agent");
            for (JsonNode c : s.path("tool_calls")) {
                sb.append(' ').append(c.path("function_name").asText());
            }
            sb.append(" results=").append(s.path("observation").path("results").size());
            out.add(sb.toString());
        }
        return out;
    }

    private static void step(JsonNode s, int expected, List<String> v) {
        String at = "steps[" + (expected - 1) + "]";
        if (!s.isObject()) {
            v.add(at + ": not an object");
            return;
        }
        known(s, STEP, at, v);
        if (!s.path("step_id").isIntegralNumber() || s.path("step_id").asInt() != expected) {
            v.add(at + ".step_id: expected " + expected + " (sequential from 1), was " + s.get("step_id"));
        }
        String source = s.path("source").asText(null);
        if (!Set.of("system", "user", "agent").contains(String.valueOf(source))) {
            v.add(at + ".source: must be system, user or agent, was " + s.get("source"));
        }
        if (s.has("timestamp")) {
            try {
                OffsetDateTime.parse(s.get("timestamp").asText());
            } catch (DateTimeParseException e) {
                v.add(at + ".timestamp: not ISO 8601: " + s.get("timestamp"));
            }
        }
        JsonNode msg = s.get("message");
        if (msg == null || !(msg.isTextual() || msg.isArray())) {
            v.add(at + ".message: required string or array of content parts");
        }
        if (!"agent".equals(source)) {
            for (String f : AGENT_ONLY) {
                if (s.has(f)) {
                    v.add(at + "." + f + ": only applicable when source is agent");
                }
            }
        }
        optionalString(s, "model_name", at, v);
        optionalString(s, "reasoning_content", at, v);
        optionalObject(s, "extra", at, v);
        Set<String> ids = new HashSet<>();
        JsonNode calls = s.get("tool_calls");
        if (calls != null) {
            if (!calls.isArray()) {
                v.add(at + ".tool_calls: not an array");
            } else {
                int i = 0;
                for (JsonNode c : calls) {
                    String ca = at + ".tool_calls[" + i++ + "]";
                    known(c, CALL, ca, v);
                    requiredString(c, "tool_call_id", ca, v);
                    requiredString(c, "function_name", ca, v);
                    if (!c.path("arguments").isObject()) {
                        v.add(ca + ".arguments: required object");
                    }
                    if (!ids.add(c.path("tool_call_id").asText())) {
                        v.add(ca + ".tool_call_id: not unique in its step");
                    }
                }
            }
        }
        JsonNode obs = s.get("observation");
        if (obs != null) {
            if (!obs.isObject() || !obs.path("results").isArray()) {
                v.add(at + ".observation.results: required array");
            } else {
                int i = 0;
                for (JsonNode r : obs.get("results")) {
                    String ra = at + ".observation.results[" + i++ + "]";
                    known(r, RESULT, ra, v);
                    optionalString(r, "source_call_id", ra, v);
                    if (r.has("source_call_id") && !ids.contains(r.get("source_call_id").asText())) {
                        v.add(ra + ".source_call_id: names no tool call of its step: " + r.get("source_call_id"));
                    }
                    if (r.has("content") && !(r.get("content").isTextual() || r.get("content").isArray())) {
                        v.add(ra + ".content: not a string or array");
                    }
                }
            }
        }
        JsonNode m = s.get("metrics");
        if (m != null) {
            if (!m.isObject()) {
                v.add(at + ".metrics: not an object");
            } else {
                known(m, METRICS, at + ".metrics", v);
                optionalCount(m, "prompt_tokens", at + ".metrics", v);
                optionalCount(m, "completion_tokens", at + ".metrics", v);
                optionalCount(m, "cached_tokens", at + ".metrics", v);
                optionalNumber(m, "cost_usd", at + ".metrics", v);
                if (m.has("cached_tokens") && m.has("prompt_tokens")
                        && m.get("cached_tokens").asLong() > m.get("prompt_tokens").asLong()) {
                    v.add(at + ".metrics.cached_tokens: more than prompt_tokens (cached ones are included in them)");
                }
            }
        }
        if (s.has("llm_call_count")) {
            JsonNode n = s.get("llm_call_count");
            if (!n.isIntegralNumber() || n.asInt() < 0) {
                v.add(at + ".llm_call_count: not a non-negative integer");
            } else if (n.asInt() == 0 && "agent".equals(source) && (s.has("metrics") || s.has("reasoning_content"))) {
                v.add(at + ": llm_call_count 0 must have no metrics nor reasoning_content");
            }
        }
    }

    private static void known(JsonNode n, Set<String> fields, String at, List<String> v) {
        for (Iterator<String> it = n.fieldNames(); it.hasNext();) {
            String f = it.next();
            if (!fields.contains(f)) {
                v.add(at + "." + f + ": not an ATIF v1.7 field (custom data belongs in extra)");
            }
        }
    }

    private static void requiredString(JsonNode n, String f, String at, List<String> v) {
        if (!n.path(f).isTextual()) {
            v.add(at + "." + f + ": required string");
        }
    }

    private static void optionalString(JsonNode n, String f, String at, List<String> v) {
        if (n.has(f) && !n.get(f).isTextual()) {
            v.add(at + "." + f + ": not a string");
        }
    }

    private static void optionalObject(JsonNode n, String f, String at, List<String> v) {
        if (n.has(f) && !n.get(f).isObject()) {
            v.add(at + "." + f + ": not an object");
        }
    }

    private static void optionalCount(JsonNode n, String f, String at, List<String> v) {
        if (n.has(f) && !(n.get(f).isIntegralNumber() && n.get(f).asLong() >= 0)) {
            v.add(at + "." + f + ": not a non-negative integer");
        }
    }

    private static void optionalNumber(JsonNode n, String f, String at, List<String> v) {
        if (n.has(f) && !n.get(f).isNumber()) {
            v.add(at + "." + f + ": not a number");
        }
    }
}
