package dev.harness4j.testkit.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.harness4j.api.McpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The {@link ScriptedMcpServer} on MCP's streamable HTTP transport, at {@code
 * http://127.0.0.1:<port>/mcp}: a POSTed JSON-RPC request is answered with an {@code
 * application/json} body, a notification with 202; GET (the optional server-to-client stream) and
 * DELETE answer 405, which the transport allows. Records like the stdio server.
 */
public final class ScriptedMcpHttp implements AutoCloseable {
    /** The endpoint's path. */
    public static final String PATH = "/mcp";

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final ExecutorService executor;

    private ScriptedMcpHttp(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    static ScriptedMcpHttp start(Path dir, String reply) {
        try {
            HttpServer s = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            ExecutorService ex = Executors.newCachedThreadPool(r -> {
                Thread t = new Thread(r, "scripted-mcp-http");
                t.setDaemon(true);
                return t;
            });
            s.setExecutor(ex);
            s.createContext(PATH, exchange -> handle(exchange, dir, reply));
            s.start();
            return new ScriptedMcpHttp(s, ex);
        } catch (IOException e) {
            throw new UncheckedIOException("could not start the scripted MCP server's HTTP endpoint", e);
        }
    }

    /** Where it listens. */
    public URI url() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + PATH);
    }

    /**
     * The HTTP server to give a run, under a name.
     *
     * @param name the server's name in the run
     * @return {@link McpServer#http} at {@link #url()}
     */
    public McpServer.Http server(String name) {
        return McpServer.http(name, url());
    }

    private static void handle(HttpExchange ex, Path dir, String reply) throws IOException {
        try (ex) {
            if (!"POST".equals(ex.getRequestMethod())) {
                ex.getResponseHeaders().add("Allow", "POST");
                ex.sendResponseHeaders(405, -1);
                return;
            }
            String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            ObjectNode answer = ScriptedMcpServer.respond(body, dir, reply);
            if (answer == null) {
                ex.sendResponseHeaders(202, -1);
                return;
            }
            byte[] out = JSON.writeValueAsBytes(answer);
            ex.getResponseHeaders().add("Content-Type", "application/json");
            ex.sendResponseHeaders(200, out.length);
            ex.getResponseBody().write(out);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
