package dev.harness4j.core.internal.acp;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.harness4j.api.McpServer;
import java.util.List;

/** A run's MCP servers as ACP's {@code session/new} takes them: stdio (command, args, env list) or {@code type: http}. */
final class AcpMcpServers {
    private AcpMcpServers() {}

    static ArrayNode toJson(List<McpServer> servers, ObjectMapper json) {
        ArrayNode out = json.createArrayNode();
        for (McpServer m : servers) {
            ObjectNode s = out.addObject();
            if (m instanceof McpServer.Stdio stdio) {
                s.put("name", stdio.name()).put("command", stdio.command());
                stdio.args().forEach(s.putArray("args")::add);
                ArrayNode env = s.putArray("env");
                stdio.env().forEach((k, v) -> env.addObject().put("name", k).put("value", v));
            } else if (m instanceof McpServer.Http http) {
                s.put("type", "http").put("name", http.name()).put("url", http.url().toString());
                s.putArray("headers");
            }
        }
        return out;
    }
}
