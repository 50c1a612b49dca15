package dev.harness4j.bench;

import com.fasterxml.jackson.databind.JsonNode;
import dev.harness4j.api.McpServer;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A task's {@code mcp_servers} in {@code task.json}: a list of {@code {"name", "command", "args",
 * "env", "read_only_paths"}} (a stdio server, started in the run's sandbox as the agent's child)
 * or {@code {"name", "url"}} (an HTTP server). {@code ${TASK_DIR}} in the command and the
 * arguments is the task directory's absolute path, which the sandbox then shows read-only, as it
 * does {@code read_only_paths} (relative to the task dir). {@code env} values are written as given:
 * name no secret there; {@code env_from} maps a variable of the server to the name of the
 * runner's environment variable holding its value (a key, a token), which the runner looks up when
 * each run starts ({@link McpServer.Stdio#envFrom()}), so the task file and the queue hold only the name.
 */
final class TaskMcpServers {
    /** The placeholder for the task directory in a command or argument. */
    static final String TASK_DIR = "${TASK_DIR}";
    private static final Set<String> FIELDS = Set.of("name", "command", "args", "env", "env_from", "read_only_paths", "url");

    private TaskMcpServers() {}

    /** The servers, or an empty list with each problem added to {@code problems}. */
    static List<McpServer> read(Path dir, JsonNode list, List<String> problems) {
        List<McpServer> out = new ArrayList<>();
        if (list == null || list.isNull()) {
            return out;
        }
        if (!list.isArray()) {
            problems.add("mcp_servers must be an array of {\"name\", \"command\", \"args\"} or {\"name\", \"url\"}");
            return out;
        }
        Set<String> names = new HashSet<>();
        int i = 0;
        for (JsonNode m : list) {
            String at = "mcp_servers[" + i++ + "]";
            if (!m.isObject()) {
                problems.add(at + " must be an object with \"name\" and \"command\" or \"url\"");
                continue;
            }
            m.fieldNames().forEachRemaining(f -> {
                if (!FIELDS.contains(f)) {
                    problems.add(at + ": unknown field \"" + f + "\" (known: " + new java.util.TreeSet<>(FIELDS) + ")");
                }
            });
            try {
                McpServer server = server(dir.toAbsolutePath().normalize(), m);
                if (!names.add(server.name())) {
                    problems.add(at + ": a second MCP server named '" + server.name() + "': names must differ");
                } else {
                    out.add(server);
                }
            } catch (IllegalArgumentException e) {
                problems.add(at + ": " + e.getMessage());
            }
        }
        return out;
    }

    private static McpServer server(Path dir, JsonNode m) {
        String name = m.path("name").isTextual() ? m.get("name").asText() : null;
        if (name == null) {
            throw new IllegalArgumentException("needs a \"name\" (letters, digits, '_' and '-')");
        }
        boolean url = m.hasNonNull("url");
        if (url == m.hasNonNull("command")) {
            throw new IllegalArgumentException("MCP server '" + name + "' needs either \"command\" (a stdio server) or"
                    + " \"url\" (an HTTP server), not " + (url ? "both" : "neither"));
        }
        if (url) {
            if (m.has("args") || m.has("env") || m.has("env_from") || m.has("read_only_paths")) {
                throw new IllegalArgumentException("MCP server '" + name + "' has a \"url\": args, env, env_from and"
                        + " read_only_paths are for a stdio server");
            }
            URI u;
            try {
                u = URI.create(m.get("url").asText());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("MCP server '" + name + "': \"url\" is not a URL: " + m.get("url").asText());
            }
            return McpServer.http(name, u);
        }
        String dirText = dir.toString();
        boolean usesDir = m.get("command").asText().contains(TASK_DIR);
        List<String> args = new ArrayList<>();
        for (JsonNode a : m.path("args")) {
            if (!a.isTextual()) {
                throw new IllegalArgumentException("MCP server '" + name + "': \"args\" must be strings, found " + a);
            }
            usesDir |= a.asText().contains(TASK_DIR);
            args.add(a.asText().replace(TASK_DIR, dirText));
        }
        McpServer.Stdio s = new McpServer.Stdio(name, m.get("command").asText().replace(TASK_DIR, dirText), args, Map.of(),
                List.of(), List.of());
        for (Iterator<Map.Entry<String, JsonNode>> it = m.path("env").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!e.getValue().isValueNode() || e.getValue().isNull()) {
                throw new IllegalArgumentException("MCP server '" + name + "': env " + e.getKey() + " must be a string");
            }
            s = s.withEnv(e.getKey(), e.getValue().asText());
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = m.path("env_from").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!e.getValue().isTextual()) {
                throw new IllegalArgumentException("MCP server '" + name + "': env_from " + e.getKey()
                        + " must be the name of an environment variable of the runner, e.g. \"MY_TOKEN\"");
            }
            s = s.withEnvFrom(e.getKey(), e.getValue().asText());
        }
        for (JsonNode p : m.path("read_only_paths")) {
            Path resolved = dir.resolve(p.asText()).normalize();
            if (!resolved.startsWith(dir)) {
                throw new IllegalArgumentException("MCP server '" + name + "': read_only_paths " + p.asText()
                        + " is outside the task dir");
            }
            s = s.withReadOnlyPath(resolved);
        }
        return usesDir ? s.withReadOnlyPath(dir) : s;
    }
}
