package dev.harness4j.core.queue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.harness4j.api.Isolation;
import dev.harness4j.api.Limits;
import dev.harness4j.api.RunSpec;
import dev.harness4j.api.SandboxNetwork;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;

/**
 * Converts a {@link RunSpec} to and from JSON (snake_case keys, durations as ISO-8601 strings,
 * absent values as JSON {@code null}). Pure functions; used by every queue store. An MCP server's
 * environment is kept as given (the entry's file is the user's own, like its prompt).
 */
final class RunSpecJson {
    private RunSpecJson() {}

    public static ObjectNode toJson(RunSpec spec) {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        n.put("harness", spec.harness());
        n.put("provider", spec.provider());
        n.put("model", spec.model());
        n.put("prompt", spec.prompt());
        n.put("baseline", spec.baseline().toString());
        n.put("ref", spec.ref());
        n.put("isolation", spec.isolation().name().toLowerCase(Locale.ROOT));
        ObjectNode limits = n.putObject("limits");
        Limits l = spec.limits();
        limits.put("inactivity_timeout", l.inactivityTimeout() == null ? null : l.inactivityTimeout().toString());
        limits.put("max_runtime", l.maxRuntime() == null ? null : l.maxRuntime().toString());
        limits.put("max_turns", l.maxTurns());
        limits.put("max_tokens", l.maxTokens());
        limits.put("max_cost_usd", l.maxCostUsd());
        limits.put("max_model_requests", l.maxModelRequests());
        n.put("system_prompt", spec.systemPrompt());
        n.put("task", spec.task());
        n.put("trial", spec.trial());
        n.put("sandbox_network", spec.sandboxNetwork() == null ? null : spec.sandboxNetwork().name().toLowerCase(Locale.ROOT));
        ObjectNode options = n.putObject("options");
        spec.options().entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> options.put(e.getKey(), e.getValue()));
        if (!spec.mcpServers().isEmpty()) {
            n.set("mcp_servers", dev.harness4j.core.internal.McpServersJson.toJson(spec.mcpServers()));
        }
        return n;
    }

    /**
     * Reads a spec written by {@link #toJson}.
     *
     * @throws IllegalArgumentException naming the missing or malformed field
     */
    public static RunSpec fromJson(JsonNode n) {
        RunSpec.Builder b = RunSpec.builder(required(n, "harness"), required(n, "provider"))
                .model(text(n, "model"))
                .prompt(required(n, "prompt"))
                .baseline(Path.of(required(n, "baseline")))
                .ref(text(n, "ref"))
                .isolation(Isolation.valueOf(required(n, "isolation").toUpperCase(Locale.ROOT)))
                .systemPrompt(text(n, "system_prompt"))
                .task(text(n, "task"))
                .trial(n.hasNonNull("trial") ? n.get("trial").asInt() : 1)
                .sandboxNetwork(sandboxNetwork(text(n, "sandbox_network")));
        JsonNode l = n.path("limits");
        b.limits(new Limits(duration(l, "inactivity_timeout"), duration(l, "max_runtime"),
                l.hasNonNull("max_turns") ? l.get("max_turns").asInt() : null)
                .withMaxTokens(l.hasNonNull("max_tokens") ? l.get("max_tokens").asLong() : null)
                .withMaxCostUsd(l.hasNonNull("max_cost_usd") ? l.get("max_cost_usd").decimalValue() : null)
                .withMaxModelRequests(l.hasNonNull("max_model_requests") ? l.get("max_model_requests").asInt() : null));
        JsonNode options = n.path("options");
        for (Iterator<Map.Entry<String, JsonNode>> it = options.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            b.option(e.getKey(), e.getValue().asText());
        }
        dev.harness4j.core.internal.McpServersJson.fromJson(n.get("mcp_servers")).forEach(b::mcpServer);
        return b.build();
    }

    static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    static String required(JsonNode n, String field) {
        String v = text(n, field);
        if (v == null) {
            throw new IllegalArgumentException("missing field '" + field + "'");
        }
        return v;
    }

    private static SandboxNetwork sandboxNetwork(String v) {
        if (v == null) {
            return null;
        }
        try {
            return SandboxNetwork.valueOf(v.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("malformed field 'sandbox_network': '" + v + "' (meter_only, host or null)", e);
        }
    }

    private static Duration duration(JsonNode n, String field) {
        String v = text(n, field);
        return v == null ? null : Duration.parse(v);
    }
}
