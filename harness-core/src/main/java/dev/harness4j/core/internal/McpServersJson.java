package dev.harness4j.core.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.harness4j.api.McpServer;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * A run spec's MCP servers in a queue entry or job plan: {@code [{"name", "command", "args", "env",
 * "env_from", "read_only_paths", "writable_paths"} | {"name", "url"}]}; {@code env_from} maps a
 * variable of the server to the name of the runner's variable holding its value (only the name is
 * stored). Pure functions.
 */
public final class McpServersJson {
    private McpServersJson() {}

    /** The servers as a JSON array. */
    public static ArrayNode toJson(List<McpServer> servers) {
        ArrayNode a = JsonNodeFactory.instance.arrayNode();
        for (McpServer m : servers) {
            ObjectNode o = a.addObject();
            o.put("name", m.name());
            if (m instanceof McpServer.Stdio s) {
                o.put("command", s.command());
                s.args().forEach(o.putArray("args")::add);
                ObjectNode env = o.putObject("env");
                s.env().forEach(env::put);
                if (!s.envFrom().isEmpty()) {
                    ObjectNode from = o.putObject("env_from");
                    s.envFrom().forEach(from::put);
                }
                s.readOnlyPaths().forEach(p -> o.withArray("read_only_paths").add(p.toString()));
                s.writablePaths().forEach(p -> o.withArray("writable_paths").add(p.toString()));
            } else if (m instanceof McpServer.Http h) {
                o.put("url", h.url().toString());
            }
        }
        return a;
    }

    /**
     * The servers of a JSON array ({@code null} or missing: none).
     *
     * @throws IllegalArgumentException naming the malformed server
     */
    public static List<McpServer> fromJson(JsonNode a) {
        List<McpServer> out = new ArrayList<>();
        if (a == null || a.isNull() || a.isMissingNode()) {
            return out;
        }
        for (JsonNode o : a) {
            String name = required(o, "name");
            if (o.hasNonNull("url")) {
                out.add(McpServer.http(name, URI.create(o.get("url").asText())));
                continue;
            }
            McpServer.Stdio s = new McpServer.Stdio(name, required(o, "command"), strings(o.path("args")),
                    Map.of(), paths(o.path("read_only_paths")), paths(o.path("writable_paths")));
            for (Iterator<Map.Entry<String, JsonNode>> it = o.path("env").fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                s = s.withEnv(e.getKey(), e.getValue().asText());
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = o.path("env_from").fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (!e.getValue().isTextual()) {
                    throw new IllegalArgumentException("MCP server '" + name + "': env_from " + e.getKey()
                            + " must name an environment variable (a string), was " + e.getValue());
                }
                s = s.withEnvFrom(e.getKey(), e.getValue().asText());
            }
            out.add(s);
        }
        return out;
    }

    private static String required(JsonNode o, String field) {
        if (!o.hasNonNull(field) || !o.get(field).isTextual()) {
            throw new IllegalArgumentException("an MCP server needs \"" + field + "\": " + o);
        }
        return o.get(field).asText();
    }

    private static List<String> strings(JsonNode a) {
        List<String> out = new ArrayList<>();
        a.forEach(v -> out.add(v.asText()));
        return out;
    }

    private static List<Path> paths(JsonNode a) {
        return strings(a).stream().map(Path::of).toList();
    }
}
