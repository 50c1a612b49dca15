package dev.harness4j.core;

import dev.harness4j.api.Harness;
import dev.harness4j.api.McpServer;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The check before a run with MCP servers: its harness's adapter passes them to its CLI. */
final class McpRefusal {
    private McpRefusal() {}

    /** Why the harness cannot take these MCP servers, or empty when there are none or it can. */
    static Optional<String> of(HarnessRegistry registry, Harness harness, List<McpServer> servers) {
        if (servers.isEmpty() || harness.supportsMcp()) {
            return Optional.empty();
        }
        List<String> able = registry.harnesses().stream().filter(Harness::supportsMcp).map(Harness::id).sorted().toList();
        return Optional.of("harness " + harness.id() + " cannot be given MCP servers ("
                + servers.stream().map(McpServer::name).toList() + "): its adapter does not pass MCP servers to its "
                + "CLI (Harness.supportsMcp() is false); drop the MCP servers from the run, or pick a harness that "
                + "supports them" + (able.isEmpty() ? "" : " (" + String.join(", ", able) + ")"));
    }

    /**
     * Why the runner cannot start these MCP servers: a stdio server takes a variable's value from
     * the runner's environment ({@link McpServer.Stdio#envFrom()}) that it lacks; empty when none does.
     */
    static Optional<String> missingEnvironment(List<McpServer> servers, Map<String, String> environment) {
        for (McpServer m : servers) {
            if (m instanceof McpServer.Stdio s) {
                List<String> missing = s.missingFrom(environment::get);
                if (!missing.isEmpty()) {
                    return Optional.of(s.missingMessage(missing));
                }
            }
        }
        return Optional.empty();
    }
}
