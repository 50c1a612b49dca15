package dev.harness4j.testkit.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A LiteLLM-compatible gateway admin API: virtual keys and spend logs. Spend rows are written in
 * batches like a real gateway: the first row after a flush opens a batch that becomes visible
 * {@code delay} later, and rows logged meanwhile join it. Spend is priced at {@link
 * #USD_PER_INPUT_TOKEN} and {@link #USD_PER_OUTPUT_TOKEN}.
 */
final class GatewayStub {
    /** Spend per prompt token: USD 1 per million. */
    static final double USD_PER_INPUT_TOKEN = 1e-6;
    /** Spend per completion token: USD 2 per million. */
    static final double USD_PER_OUTPUT_TOKEN = 2e-6;

    private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*([smhd])");

    private final ObjectMapper json;
    private final Duration delay;
    private final SecureRandom random = new SecureRandom();
    private final Map<String, Instant> keys = new ConcurrentHashMap<>();
    private final List<Row> rows = new ArrayList<>();
    private Instant batchDue;
    private volatile GatewayFault fault = GatewayFault.NONE;
    private final java.util.concurrent.atomic.AtomicInteger deleted = new java.util.concurrent.atomic.AtomicInteger();

    private record Row(String key, ObjectNode row, Instant visibleAt) {}

    GatewayStub(ObjectMapper json, Duration delay) {
        this.json = json;
        this.delay = delay;
    }

    void fault(GatewayFault value) {
        this.fault = value;
    }

    /** How many keys {@code POST /key/delete} has deleted. */
    int deletedKeys() {
        return deleted.get();
    }

    /** How many generated keys are live (neither deleted nor expired). */
    int liveKeys() {
        Instant now = Instant.now();
        return (int) keys.values().stream().filter(now::isBefore).count();
    }

    /** Whether {@code key} was generated here, is not deleted and has not expired. */
    boolean isLiveKey(String key) {
        if (key == null) {
            return false;
        }
        Instant expires = keys.get(key);
        return expires != null && Instant.now().isBefore(expires);
    }

    /** Logs one answered model call made with a generated key. */
    synchronized void recordSpend(String key, String model, Usage usage, String requestId) {
        Instant now = Instant.now();
        if (batchDue == null || !now.isBefore(batchDue)) {
            batchDue = now.plus(delay);
        }
        ObjectNode row = json.createObjectNode().put("request_id", requestId).put("api_key", hash(key))
                .put("model", model).put("prompt_tokens", usage.promptTokens())
                .put("completion_tokens", usage.output()).put("total_tokens", usage.promptTokens() + usage.output())
                .put("spend", java.math.BigDecimal.valueOf(usage.promptTokens()).multiply(java.math.BigDecimal.valueOf(USD_PER_INPUT_TOKEN))
                        .add(java.math.BigDecimal.valueOf(usage.output()).multiply(java.math.BigDecimal.valueOf(USD_PER_OUTPUT_TOKEN))))
                .put("startTime", now.toString()).put("endTime", now.toString());
        // as LiteLLM: usage beyond prompt/completion in metadata.additional_usage_values
        ObjectNode extra = row.putObject("metadata").putObject("additional_usage_values");
        if (usage.cacheRead() > 0) {
            extra.put("cache_read_input_tokens", usage.cacheRead());
        }
        if (usage.cacheWrite() > 0) {
            extra.put("cache_creation_input_tokens", usage.cacheWrite());
        }
        rows.add(new Row(key, row, batchDue));
    }

    void handle(HttpExchange ex, String method, String path, String body, Router.Rec rec, boolean admin)
            throws IOException {
        if (path.equals("/health/readiness") || path.equals("/health/liveliness") || path.equals("/health/liveness")) {
            Router.sendJson(ex, 200, json.createObjectNode().put("status", "healthy").put("db", "connected")
                    .put("litellm_version", "scripted"), rec);
            return;
        }
        if (!admin) {
            Router.sendJson(ex, 401, error("Authentication Error: the gateway's master key is required"), rec);
            return;
        }
        GatewayFault f = fault;
        if (f == GatewayFault.MINT_FAILS && path.equals("/key/generate")
                || f == GatewayFault.SPEND_500 && path.equals("/spend/logs")
                || f == GatewayFault.DELETE_FAILS && path.equals("/key/delete")) {
            Router.sendJson(ex, 500, error("Internal Server Error (the stub's fault " + f + ")"), rec);
            return;
        }
        if (f == GatewayFault.SPEND_GARBAGE && path.equals("/spend/logs")) {
            Router.send(ex, 200, "text/html", "<html>upstream hiccup".getBytes(StandardCharsets.UTF_8), rec);
            return;
        }
        if (f == GatewayFault.SPEND_WRONG_SHAPE && path.equals("/spend/logs")) {
            Router.sendJson(ex, 200, json.createObjectNode().put("detail", "not rows"), rec);
            return;
        }
        if ("POST".equals(method) && path.equals("/key/generate")) {
            JsonNode req = readTree(body);
            if (req.hasNonNull("tags")) { // as open-source LiteLLM: tags go in metadata.tags instead
                Router.sendJson(ex, 400, error("Only premium users can add tags to keys."), rec);
                return;
            }
            byte[] bytes = new byte[16];
            random.nextBytes(bytes);
            String key = "sk-scripted-" + HexFormat.of().formatHex(bytes);
            Duration ttl = parseDuration(req.path("duration").asText(null));
            Instant expires = ttl == null ? Instant.MAX : Instant.now().plus(ttl);
            keys.put(key, expires);
            ObjectNode out = json.createObjectNode().put("key", key).put("token", hash(key)).put("token_id", hash(key));
            if (ttl == null) {
                out.putNull("expires");
            } else {
                out.put("expires", expires.toString());
            }
            out.set("models", req.path("models").isArray() ? req.path("models") : json.createArrayNode());
            out.set("metadata", req.path("metadata").isObject() ? req.path("metadata") : json.createObjectNode());
            Router.sendJson(ex, 200, out, rec);
        } else if ("GET".equals(method) && path.equals("/spend/logs")) {
            String apiKey = queryParam(ex.getRequestURI().getRawQuery(), "api_key");
            Router.sendJson(ex, 200, visibleRows(apiKey), rec);
        } else if ("POST".equals(method) && path.equals("/key/delete")) {
            ObjectNode out = json.createObjectNode();
            ArrayNode deleted = out.putArray("deleted_keys");
            for (JsonNode k : readTree(body).path("keys")) {
                if (keys.remove(k.asText()) != null) {
                    deleted.add(k.asText());
                    this.deleted.incrementAndGet();
                }
            }
            Router.sendJson(ex, 200, out, rec);
        } else {
            Router.sendJson(ex, 404, error("the gateway stub has no endpoint " + method + " " + path), rec);
        }
    }

    private synchronized ArrayNode visibleRows(String apiKey) {
        Instant now = Instant.now();
        ArrayNode out = json.createArrayNode();
        for (Row r : rows) {
            // LiteLLM filters by the hashed key (its "token"); the raw key is accepted too
            if (!now.isBefore(r.visibleAt()) && (apiKey == null || apiKey.equals(r.key()) || apiKey.equals(hash(r.key())))) {
                out.add(r.row());
            }
        }
        return out;
    }

    private ObjectNode error(String message) {
        ObjectNode root = json.createObjectNode();
        root.putObject("error").put("message", message).put("type", "auth_error");
        return root;
    }

    private JsonNode readTree(String body) {
        try {
            JsonNode n = json.readTree(body.isBlank() ? "{}" : body);
            return n == null ? json.createObjectNode() : n;
        } catch (IOException e) {
            return json.createObjectNode();
        }
    }

    /** LiteLLM durations: {@code 30s}, {@code 10m}, {@code 1h}, {@code 2d}; null or unparsable means none. */
    static Duration parseDuration(String s) {
        if (s == null) {
            return null;
        }
        Matcher m = DURATION.matcher(s.strip());
        if (!m.matches()) {
            return null;
        }
        long n = Long.parseLong(m.group(1));
        switch (m.group(2)) {
            case "s": return Duration.ofSeconds(n);
            case "m": return Duration.ofMinutes(n);
            case "h": return Duration.ofHours(n);
            default: return Duration.ofDays(n);
        }
    }

    private static String queryParam(String rawQuery, String name) {
        if (rawQuery == null) {
            return null;
        }
        for (String pair : rawQuery.split("&")) {
            int eq = pair.indexOf('=');
            String k = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            if (k.equals(name)) {
                return eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            }
        }
        return null;
    }

    private static String hash(String key) {
        try {
            var d = java.security.MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(d.digest(key.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
