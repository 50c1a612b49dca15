package dev.harness4j.claude;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.McpServer;

/**
 * The run's MCP servers for Claude Code: a file {@value #FILE} in the scratch dir ({@code
 * {"mcpServers": {<name>: {"type": "stdio", "command", "args", "env"} | {"type": "http", "url"}}}})
 * given with {@code --mcp-config}, and {@code --strict-mcp-config} so that no other MCP
 * configuration (the user's, a project's {@code .mcp.json}) is read. The tools reach the model as
 * {@code mcp__<server>__<tool>}. Pure.
 */
final class ClaudeMcp {
    /** The config file's name in the scratch dir. */
    static final String FILE = "claude-mcp.json";

    private static final ObjectMapper JSON = new ObjectMapper();

    private ClaudeMcp() {}

    /** Adds the file and the flags, when the run has MCP servers. */
    static void add(Invocation.Builder b, HarnessContext context) {
        if (context.mcpServers().isEmpty()) {
            return;
        }
        b.file(FILE, render(context));
        b.args("--mcp-config", context.scratchDir().toAbsolutePath().resolve(FILE).toString(), "--strict-mcp-config");
    }

    static String render(HarnessContext context) {
        ObjectNode root = JSON.createObjectNode();
        ObjectNode servers = root.putObject("mcpServers");
        for (McpServer m : context.mcpServers()) {
            ObjectNode s = servers.putObject(m.name());
            if (m instanceof McpServer.Stdio stdio) {
                s.put("type", "stdio").put("command", stdio.command());
                stdio.args().forEach(s.putArray("args")::add);
                ObjectNode env = s.putObject("env");
                stdio.env().forEach(env::put);
            } else if (m instanceof McpServer.Http http) {
                s.put("type", "http").put("url", http.url().toString());
            }
        }
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(FILE + " could not be rendered", e);
        }
    }
}
