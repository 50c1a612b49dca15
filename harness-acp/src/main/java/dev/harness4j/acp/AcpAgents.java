package dev.harness4j.acp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.HarnessException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The table of ACP agents: the bundled one ({@value #RESOURCE}) and the parser for a table of the
 * same shape. A table is {@code {"agents": {"<id>": {row}}}} with the row fields of {@link
 * AcpAgent} in snake case ({@code api_styles}, {@code remove_env}, {@code key_env}, {@code
 * no_key}, {@code stop_after_rate_limits}, {@code mode}, {@code stop_after_endpoint_failures}, {@code follow_up}). An {@code env} value may be a JSON object, passed as its
 * compact JSON with the placeholders filled in its text.
 */
public final class AcpAgents {
    /** The prefix of every ACP harness id: {@value}. */
    public static final String PREFIX = "acp:";
    /** The bundled table, a class path resource. */
    public static final String RESOURCE = "/dev/harness4j/acp/agents.json";
    /** A user's table below a state dir ({@code ~/.harness4j} by default): {@value}. */
    public static final String USER_RELATIVE_PATH = "config/acp-agents.json";

    private static final ObjectMapper JSON = new ObjectMapper();

    private AcpAgents() {}

    /**
     * The bundled agents, by id.
     *
     * @return the agents in the table's order
     */
    public static Map<String, AcpAgent> bundled() {
        try (InputStream in = AcpAgents.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the bundled ACP agents table " + RESOURCE + " is missing from harness-acp");
            }
            return parse(JSON.readTree(in), RESOURCE);
        } catch (IOException e) {
            throw new IllegalStateException("could not read the bundled ACP agents table " + RESOURCE, e);
        }
    }

    /**
     * One bundled agent.
     *
     * @param id the agent's id (without {@value #PREFIX})
     * @return the agent
     * @throws IllegalArgumentException when the table has no such agent
     */
    public static AcpAgent bundled(String id) {
        AcpAgent a = bundled().get(id);
        if (a == null) {
            throw new IllegalArgumentException("no ACP agent '" + id + "' in " + RESOURCE + "; it has " + bundled().keySet());
        }
        return a;
    }

    /**
     * A user's table, {@code <stateDir>/}{@value #USER_RELATIVE_PATH}, in the bundled table's format.
     *
     * @param stateDir the state dir whose {@code config} holds the table
     * @return the agents, by id, in the table's order; none when the file does not exist
     * @throws HarnessException naming the file (and the row and field) when it cannot be read, is not
     *     JSON or a row is malformed
     */
    public static Map<String, AcpAgent> user(java.nio.file.Path stateDir) {
        java.nio.file.Path file = stateDir.resolve(USER_RELATIVE_PATH);
        if (!java.nio.file.Files.exists(file)) {
            return Map.of();
        }
        JsonNode root;
        try {
            root = JSON.readTree(file.toFile());
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new HarnessException(file + ": not valid JSON at line " + e.getLocation().getLineNr() + ", column "
                    + e.getLocation().getColumnNr() + " (" + e.getOriginalMessage() + "); fix the ACP agents table");
        } catch (IOException e) {
            throw new HarnessException("could not read the ACP agents table " + file + ": " + e, e);
        }
        return parse(root, file.toString());
    }

    /**
     * Parses a table.
     *
     * @param root the table's JSON
     * @param where where it came from, for messages
     * @return the agents, by id, in the table's order
     * @throws HarnessException when the table is malformed; the message names the row and field
     */
    public static Map<String, AcpAgent> parse(JsonNode root, String where) {
        JsonNode agents = root.path("agents");
        if (!agents.isObject()) {
            throw new HarnessException(where + ": an ACP agents table is {\"agents\": {\"<id>\": {...}}}; no \"agents\" object found");
        }
        Map<String, AcpAgent> out = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = agents.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            try {
                out.put(e.getKey(), row(e.getKey(), e.getValue()));
            } catch (IllegalArgumentException ex) {
                throw new HarnessException(where + ": ACP agent '" + e.getKey() + "': " + ex.getMessage(), ex);
            }
        }
        return out;
    }

    private static AcpAgent row(String id, JsonNode r) {
        Set<ApiStyle> styles = new LinkedHashSet<>();
        for (String s : strings(r, "api_styles")) {
            try {
                styles.add(ApiStyle.valueOf(s.toUpperCase(Locale.ROOT)));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("api_styles names '" + s + "', not one of "
                        + java.util.Arrays.toString(ApiStyle.values()), e);
            }
        }
        Map<String, String> env = new LinkedHashMap<>();
        // an object or array value is passed as its compact JSON (e.g. a config-content variable)
        r.path("env").fields().forEachRemaining(f -> env.put(f.getKey(),
                f.getValue().isContainerNode() ? f.getValue().toString() : f.getValue().asText()));
        Map<String, JsonNode> files = new LinkedHashMap<>();
        r.path("files").fields().forEachRemaining(f -> files.put(f.getKey(), f.getValue()));
        return new AcpAgent(id, text(r, "name"), text(r, "binary"), strings(r, "args"), text(r, "version"),
                text(r, "install"), styles, strings(r, "remove_env"), env, text(r, "key_env"), text(r, "no_key"), files,
                r.path("stop_after_rate_limits").asInt(0), text(r, "mode"), r.path("stop_after_endpoint_failures").asInt(0),
                r.path("follow_up").asBoolean(false));
    }

    private static String text(JsonNode r, String field) {
        JsonNode v = r.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    private static List<String> strings(JsonNode r, String field) {
        List<String> out = new ArrayList<>();
        JsonNode v = r.path(field);
        if (!v.isMissingNode() && !v.isArray()) {
            throw new IllegalArgumentException(field + " must be an array of strings");
        }
        v.forEach(n -> out.add(n.asText()));
        return out;
    }
}
