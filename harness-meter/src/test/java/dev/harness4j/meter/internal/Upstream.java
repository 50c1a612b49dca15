package dev.harness4j.meter.internal;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** A real loopback HTTP server standing in for a model endpoint: each path answers as a test says. */
public final class Upstream implements AutoCloseable {
    /** One received request: method, path, query, headers (lower-case names), body. */
    public record Received(String method, String path, String query, Map<String, List<String>> headers, byte[] body) {}

    @FunctionalInterface
    public interface Handler {
        void handle(HttpExchange ex) throws IOException;
    }

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "test-upstream");
        t.setDaemon(true);
        return t;
    });
    public final List<Received> received = new CopyOnWriteArrayList<>();
    private final Map<String, Handler> handlers = new ConcurrentHashMap<>();

    public Upstream() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        server.createContext("/", ex -> {
            byte[] body = ex.getRequestBody().readAllBytes();
            Map<String, List<String>> h = new java.util.TreeMap<>();
            ex.getRequestHeaders().forEach((k, v) -> h.put(k.toLowerCase(java.util.Locale.ROOT), List.copyOf(v)));
            received.add(new Received(ex.getRequestMethod(), ex.getRequestURI().getRawPath(),
                    ex.getRequestURI().getRawQuery(), h, body));
            Handler handler = handlers.get(ex.getRequestURI().getRawPath());
            if (handler == null) {
                send(ex, 404, "application/json", "{\"error\":{\"type\":\"not_found\",\"message\":\"no such path\"}}");
            } else {
                handler.handle(ex); // a handler that throws leaves the exchange open: the server drops the connection
            }
            ex.close();
        });
        server.setExecutor(executor);
        server.start();
    }

    public Upstream on(String path, Handler handler) {
        handlers.put(path, handler);
        return this;
    }

    public URI url(String path) {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path);
    }

    public static void send(HttpExchange ex, int status, String contentType, String body) throws IOException {
        byte[] b = body.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("content-type", contentType);
        ex.sendResponseHeaders(status, b.length == 0 ? -1 : b.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(b);
        }
    }

    /** Streams the pieces as chunks, each flushed. */
    static void stream(HttpExchange ex, String contentType, List<byte[]> pieces) throws IOException {
        ex.getResponseHeaders().set("content-type", contentType);
        ex.sendResponseHeaders(200, 0);
        try (OutputStream out = ex.getResponseBody()) {
            for (byte[] p : pieces) {
                out.write(p);
                out.flush();
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
