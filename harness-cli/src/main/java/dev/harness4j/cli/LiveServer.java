package dev.harness4j.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.harness4j.bench.BailRequests;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The web server of {@code harness4j serve}: the pages of {@link LivePages} and {@link
 * LiveRunPage}, two Server-Sent Events streams (a bench's changes, polled from the state dir's
 * file times every {@link #POLL}; a run's output lines as they are written), the static report's
 * files, and the bail buttons ({@link BailRequests}: the one thing it writes, a request file the
 * bench's process acts on). Every request needs the token: {@code ?t=} (which sets a cookie), the
 * cookie, or, for a bail, the {@code X-Harness4j-Token} header; without it, 403.
 */
final class LiveServer implements AutoCloseable {
    /** How often the event streams look at the state dir: 500 ms. */
    static final Duration POLL = Duration.ofMillis(500);
    /** How long an event stream stays quiet before a keep-alive comment: 15 s. */
    static final Duration KEEP_ALIVE = Duration.ofSeconds(15);
    private static final String COOKIE = "harness4j_token";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final LiveState state;
    private final LiveSteps steps = new LiveSteps(dev.harness4j.core.HarnessRegistry.fromServices());
    private final String token;
    private final HttpServer server;
    private final ExecutorService threads;
    private volatile boolean closed;

    /** Serves a file state dir. */
    LiveServer(Path stateDir, InetSocketAddress bind) throws IOException {
        this(new LiveFiles(stateDir), bind);
    }

    /** Serves {@code state}, which it closes on {@link #close()}. */
    LiveServer(LiveState state, InetSocketAddress bind) throws IOException {
        this.state = state;
        byte[] random = new byte[24];
        new SecureRandom().nextBytes(random);
        this.token = HexFormat.of().formatHex(random);
        this.threads = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "harness4j-serve");
            t.setDaemon(true);
            return t;
        });
        this.server = HttpServer.create(bind, 0);
        server.setExecutor(threads);
        server.createContext("/", this::handle);
        server.start();
    }

    /** The URL to open, with the token. */
    URI url() {
        InetSocketAddress a = server.getAddress();
        String host = a.getAddress().isAnyLocalAddress() ? "127.0.0.1" : a.getAddress().getHostAddress();
        return URI.create("http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + a.getPort() + "/?t=" + token);
    }

    private void handle(HttpExchange x) throws IOException {
        try (x) {
            Map<String, String> query = query(x.getRequestURI());
            boolean viaQuery = same(query.get("t"));
            if (!viaQuery && !same(cookie(x)) && !same(x.getRequestHeaders().getFirst("X-Harness4j-Token"))) {
                send(x, 403, "text/plain", "forbidden: open the URL harness4j serve printed (it carries the token)");
                return;
            }
            if (viaQuery) {
                x.getResponseHeaders().add("Set-Cookie", COOKIE + "=" + token + "; Path=/; HttpOnly; SameSite=Strict");
            }
            route(x, x.getRequestURI().getPath(), query);
        } catch (IOException e) {
            // the browser went away
        }
    }

    private void route(HttpExchange x, String path, Map<String, String> query) throws IOException {
        String[] p = path.split("/", -1); // "", "bench", id, ...
        String id = p.length > 2 && LiveState.ID.matcher(p[2]).matches() ? p[2] : null;
        boolean post = x.getRequestMethod().equals("POST");
        if (path.equals("/")) {
            send(x, 200, "text/html", LivePages.benches(state, token));
        } else if (p[1].equals("bench") && id != null && p.length == 3) {
            send(x, 200, "text/html", LivePages.bench(state, id, token));
        } else if (p[1].equals("bench") && id != null && p.length == 4 && p[3].equals("live")) {
            send(x, 200, "text/html", LivePages.benchLive(state, id));
        } else if (p[1].equals("run") && id != null && p.length == 3) {
            send(x, 200, "text/html", LiveRunPage.render(state, id, token));
        } else if (p[1].equals("events") && p.length == 4 && LiveState.ID.matcher(p[3]).matches()) {
            events(x, p[2], p[3]);
        } else if (p[1].equals("bail") && p.length == 4 && LiveState.ID.matcher(p[3]).matches()) {
            if (!post || !same(x.getRequestHeaders().getFirst("X-Harness4j-Token"))) {
                send(x, 403, "text/plain", "a bail is a POST with the X-Harness4j-Token header");
            } else if (state.noBail().isPresent()) {
                send(x, 409, "text/plain", state.noBail().get());
            } else if (p[2].equals("run")) {
                state.bailRun(p[3]);
                send(x, 200, "text/plain", "bail requested for run " + p[3]);
            } else if (p[2].equals("bench")) {
                state.bailBench(p[3]);
                send(x, 200, "text/plain", "bail requested for bench " + p[3]);
            } else {
                send(x, 404, "text/plain", "no such page");
            }
        } else if (path.equals("/compare")) {
            compare(x, query.getOrDefault("bench", ""), query.getOrDefault("baseline", ""));
        } else if (p[1].equals("report") && id != null) {
            report(x, id, path.substring(("/report/" + id + "/").length() - 1));
        } else {
            send(x, 404, "text/plain", "no such page");
        }
    }

    private void compare(HttpExchange x, String bench, String baseline) throws IOException {
        String text;
        try {
            text = baseline.isEmpty() ? "give a baseline bench" : state.compare(bench, baseline);
        } catch (IllegalArgumentException e) {
            text = e.getMessage();
        }
        send(x, 200, "text/html", LivePages.compare(bench, baseline, text, token));
    }

    /** A file of the bench's static report ({@code <state-dir>/reports/<bench>/}), nothing outside it. */
    private void report(HttpExchange x, String bench, String rest) throws IOException {
        Path root = state.reportDir(bench).map(Path::normalize).orElse(null);
        Path file = root == null ? null : root.resolve(rest.startsWith("/") ? rest.substring(1) : rest).normalize();
        if (file == null || !file.startsWith(root) || !Files.isRegularFile(file)) {
            send(x, 404, "text/plain", "no report file " + rest + " for bench " + bench
                    + " (a bench writes its report when it ends; harness4j bench report writes one)");
            return;
        }
        byte[] b = Files.readAllBytes(file);
        x.getResponseHeaders().set("Content-Type", file.toString().endsWith(".html") ? "text/html; charset=utf-8"
                : "application/octet-stream");
        x.sendResponseHeaders(200, b.length);
        x.getResponseBody().write(b);
    }

    private void events(HttpExchange x, String kind, String id) throws IOException {
        x.getResponseHeaders().set("Content-Type", "text/event-stream; charset=utf-8");
        x.getResponseHeaders().set("Cache-Control", "no-store");
        x.sendResponseHeaders(200, 0);
        OutputStream out = x.getResponseBody();
        if (kind.equals("bench")) {
            benchEvents(out);
        } else if (kind.equals("run")) {
            String harness = state.entries().stream().filter(e -> id.equals(e.runId())).map(LiveState.Entry::harness)
                    .findFirst().orElse(null);
            new LiveTail(state, id, (event, data) -> write(out, event, data), steps, harness)
                    .run(() -> closed, POLL, KEEP_ALIVE);
        }
    }

    private void benchEvents(OutputStream out) throws IOException {
        String last = state.fingerprint();
        long quiet = 0;
        while (!closed) {
            sleep();
            String now = state.fingerprint();
            if (!now.equals(last)) {
                last = now;
                write(out, "change", now);
                quiet = 0;
            } else if ((quiet += POLL.toMillis()) >= KEEP_ALIVE.toMillis()) {
                out.write(": keep-alive\n\n".getBytes(StandardCharsets.UTF_8));
                out.flush();
                quiet = 0;
            }
        }
    }

    static void sleep() throws IOException {
        try {
            Thread.sleep(POLL.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    private static void write(OutputStream out, String event, String data) throws IOException {
        StringBuilder b = new StringBuilder("event: ").append(event).append('\n');
        data.lines().forEach(l -> b.append("data: ").append(l).append('\n'));
        out.write(b.append('\n').toString().getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    static String json(Object o) {
        try {
            return JSON.writeValueAsString(o);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void send(HttpExchange x, int status, String type, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        x.getResponseHeaders().set("Content-Type", type + "; charset=utf-8");
        x.getResponseHeaders().set("Cache-Control", "no-store");
        x.sendResponseHeaders(status, b.length);
        x.getResponseBody().write(b);
    }

    private boolean same(String given) {
        return given != null && MessageDigest.isEqual(given.getBytes(StandardCharsets.UTF_8),
                token.getBytes(StandardCharsets.UTF_8));
    }

    private static String cookie(HttpExchange x) {
        for (String header : x.getRequestHeaders().getOrDefault("Cookie", java.util.List.of())) {
            for (String c : header.split(";")) {
                String t = c.trim();
                if (t.startsWith(COOKIE + "=")) {
                    return t.substring(COOKIE.length() + 1);
                }
            }
        }
        return null;
    }

    private static Map<String, String> query(URI uri) {
        Map<String, String> q = new LinkedHashMap<>();
        String raw = uri.getRawQuery();
        if (raw != null) {
            for (String kv : raw.split("&")) {
                int i = kv.indexOf('=');
                q.putIfAbsent(URLDecoder.decode(i < 0 ? kv : kv.substring(0, i), StandardCharsets.UTF_8),
                        i < 0 ? "" : URLDecoder.decode(kv.substring(i + 1), StandardCharsets.UTF_8));
            }
        }
        return q;
    }

    /** Stops the server and its event streams; idempotent. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            server.stop(0);
            threads.shutdownNow();
            state.close();
        }
    }
}
