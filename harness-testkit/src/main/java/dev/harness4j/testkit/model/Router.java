package dev.harness4j.testkit.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Routes each HTTP exchange to its endpoint and records it. */
final class Router implements HttpHandler {
    private static final Logger log = LoggerFactory.getLogger(Router.class);

    private final ScriptedModelServer server;
    private final ObjectMapper json;
    private final GatewayStub gateway;

    Router(ScriptedModelServer server, ObjectMapper json, GatewayStub gateway) {
        this.server = server;
        this.json = json;
        this.gateway = gateway;
    }

    /** Thrown to close the connection without finishing the answer (the JDK server then drops it). */
    static final class ConnectionDropped extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ConnectionDropped() {
            super("scripted connection drop", null, false, false);
        }
    }

    /** The record of one request, filled in while it is handled. */
    static final class Rec {
        String protocol = "none";
        String model;
        boolean stream;
        List<String> tools = List.of();
        RecordedRequest.Kind kind = RecordedRequest.Kind.OTHER;
        Step step;
        int status = -1;
        private Runnable recorder = () -> {};
        private boolean recorded;

        /**
         * Records the request with its status just before the response starts, so a client
         * that got its answer always finds the request in {@code requests()}.
         */
        synchronized void responding(int httpStatus) {
            status = httpStatus;
            recordOnce();
        }

        synchronized void recordOnce() {
            if (!recorded) {
                recorded = true;
                recorder.run();
            }
        }
    }

    @Override
    public void handle(HttpExchange ex) throws IOException {
        Instant at = Instant.now();
        String method = ex.getRequestMethod().toUpperCase(Locale.ROOT);
        String path = ex.getRequestURI().getPath();
        String query = ex.getRequestURI().getRawQuery();
        byte[] raw;
        try (InputStream in = ex.getRequestBody()) {
            raw = in.readAllBytes();
        }
        String body = new String(raw, StandardCharsets.UTF_8);
        Rec rec = new Rec();
        Headers h = ex.getRequestHeaders();
        rec.recorder = () -> server.record(new RecordedRequest(at, method, path, query, rec.protocol, rec.model,
                rec.stream, rec.tools, authHeaders(h), rec.kind, rec.step, rec.status, body));
        try {
            route(ex, method, normalise(path), body, rec, presentedKey(h, query));
        } finally {
            rec.recordOnce(); // requests that never got an answer (stalls, drops before headers)
            log.debug("{} {} protocol={} model={} kind={} status={}", method, path, rec.protocol, rec.model,
                    rec.kind, rec.status);
        }
    }

    private void route(HttpExchange ex, String method, String path, String body, Rec rec, String key) throws IOException {
        boolean post = "POST".equals(method);
        boolean get = "GET".equals(method);
        if ("HEAD".equals(method)) {
            // connectivity probes (Claude Code sends one to the base URL)
            rec.protocol = "probe";
            send(ex, 200, "text/plain", new byte[0], rec);
            return;
        }
        if (post && path.equals("/v1/messages")) {
            rec.protocol = server.anthropic().name();
            modelCall(ex, server.anthropic(), body, rec, key);
        } else if (post && path.equals("/v1/chat/completions")) {
            rec.protocol = server.chat().name();
            modelCall(ex, server.chat(), body, rec, key);
        } else if (post && path.equals("/v1/responses")) {
            rec.protocol = server.responses().name();
            modelCall(ex, server.responses(), body, rec, key);
        } else if (post && GeminiApi.forPath(json, path) != null) {
            GeminiApi gemini = GeminiApi.forPath(json, path);
            rec.protocol = gemini.name();
            modelCall(ex, gemini, body, rec, key);
        } else if (post && GeminiApi.isCountTokens(path)) {
            rec.protocol = "gemini-count-tokens";
            GeminiApi gemini = GeminiApi.plain(json);
            JsonNode req = parse(ex, body, gemini, rec);
            if (req == null) {
                return;
            }
            if (!server.authorized(key)) {
                sendJson(ex, 401, gemini.error(401, "invalid or missing API key"), rec);
                return;
            }
            sendJson(ex, 200, gemini.countTokens(req), rec);
        } else if (get && GeminiApi.isModelList(path)) {
            rec.protocol = "gemini-models";
            GeminiApi.Listing list = GeminiApi.plain(json).modelList(server.scriptedModels(), key, server.authorized(key));
            sendJson(ex, list.status(), list.body(), rec);
        } else if (post && path.equals("/v1/messages/count_tokens")) {
            rec.protocol = "count-tokens";
            JsonNode req = parse(ex, body, server.anthropic(), rec);
            if (req == null) {
                return;
            }
            rec.model = req.path("model").asText(null);
            if (!server.authorized(key)) {
                sendJson(ex, 401, server.anthropic().error(401, "invalid or missing API key"), rec);
                return;
            }
            sendJson(ex, 200, server.anthropic().countTokens(req), rec);
        } else if (get && (path.equals("/v1/models") || path.equals("/api/tags"))) {
            rec.protocol = "models";
            boolean anthropicStyle = ex.getRequestHeaders().containsKey("anthropic-version");
            if (!server.authorized(key)) {
                Protocol p = anthropicStyle ? server.anthropic() : server.chat();
                sendJson(ex, 401, p.error(401, "invalid or missing API key"), rec);
                return;
            }
            sendJson(ex, 200, path.equals("/api/tags") ? tags() : modelList(), rec);
        } else if (path.startsWith("/key/") || path.startsWith("/spend/") || path.startsWith("/health/")) {
            rec.protocol = "gateway";
            gateway.handle(ex, method, path, body, rec, server.authorizedAdmin(key));
        } else {
            ObjectNode err = json.createObjectNode();
            err.putObject("error").put("type", "not_found_error")
                    .put("message", "the scripted model server has no endpoint " + method + " " + path);
            sendJson(ex, 404, err, rec);
        }
    }

    private ObjectNode modelList() {
        ObjectNode root = json.createObjectNode().put("object", "list");
        var data = root.putArray("data");
        for (String m : server.scriptedModels()) {
            data.addObject().put("id", m).put("object", "model").put("type", "model").put("display_name", m)
                    .put("created", 0).put("created_at", "2026-01-01T00:00:00Z").put("owned_by", "scripted");
        }
        root.put("has_more", false);
        return root;
    }

    private ObjectNode tags() {
        ObjectNode root = json.createObjectNode();
        var models = root.putArray("models");
        for (String m : server.scriptedModels()) {
            models.addObject().put("name", m).put("model", m).put("modified_at", "2026-01-01T00:00:00Z")
                    .put("size", 0).put("digest", "scripted");
        }
        return root;
    }

    private void modelCall(HttpExchange ex, Protocol p, String body, Rec rec, String key) throws IOException {
        JsonNode req = parse(ex, body, p, rec);
        if (req != null) {
            server.modelCall(ex, p, req, rec, key);
        }
    }

    private JsonNode parse(HttpExchange ex, String body, Protocol p, Rec rec) throws IOException {
        try {
            JsonNode n = json.readTree(body);
            if (n != null && n.isObject()) {
                return n;
            }
        } catch (IOException e) {
            // answered below
        }
        sendJson(ex, 400, p.error(400, "the request body is not a JSON object"), rec);
        return null;
    }

    /** Accepts {@code /v1/...} and the same paths without {@code /v1} (some clients drop it). */
    private static String normalise(String path) {
        String p = path.endsWith("/") && path.length() > 1 ? path.substring(0, path.length() - 1) : path;
        if (p.equals("/chat/completions") || p.equals("/responses") || p.equals("/models") || p.equals("/messages")
                || p.equals("/messages/count_tokens")) {
            return "/v1" + p;
        }
        return p;
    }

    /**
     * The key presented as {@code x-api-key}, {@code api-key}, {@code x-goog-api-key}, {@code
     * Authorization: Bearer} or a {@code key} query parameter (Gemini), or null.
     */
    static String presentedKey(Headers h, String rawQuery) {
        for (String name : List.of("x-api-key", "api-key", "x-goog-api-key")) {
            String k = h.getFirst(name);
            if (k != null && !k.isBlank()) {
                return k.strip();
            }
        }
        String k = queryKey(rawQuery);
        if (k != null) {
            return k;
        }
        String auth = h.getFirst("authorization");
        if (auth != null && auth.regionMatches(true, 0, "Bearer ", 0, 7)) {
            String v = auth.substring(7).strip();
            return v.isEmpty() ? null : v;
        }
        return null;
    }

    /** The {@code key} query parameter's value (Gemini's other way to send a key), or null. */
    static String queryKey(String rawQuery) {
        if (rawQuery == null) {
            return null;
        }
        for (String pair : rawQuery.split("&")) {
            if (pair.startsWith("key=") && pair.length() > 4) {
                return URLDecoder.decode(pair.substring(4), StandardCharsets.UTF_8).strip();
            }
        }
        return null;
    }

    private static Set<String> authHeaders(Headers h) {
        Set<String> names = new LinkedHashSet<>();
        for (String n : List.of("x-api-key", "api-key", "x-goog-api-key", "authorization")) {
            if (h.containsKey(n)) {
                names.add(n);
            }
        }
        return names;
    }

    static void sendJson(HttpExchange ex, int status, JsonNode body, Rec rec) throws IOException {
        send(ex, status, "application/json", body.toString().getBytes(StandardCharsets.UTF_8), rec);
    }

    static void send(HttpExchange ex, int status, String contentType, byte[] body, Rec rec) throws IOException {
        ex.getResponseHeaders().set("content-type", contentType);
        rec.responding(status);
        ex.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        if (body.length > 0) {
            ex.getResponseBody().write(body);
        }
        ex.close();
    }
}
