package dev.harness4j.meter.internal.gateway;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.harness4j.api.Secret;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The admin API of a LiteLLM proxy, as far as gateway accounting needs it: {@code POST
 * /key/generate} (a virtual key with a {@code duration}, a {@code key_alias} and {@code metadata}
 * holding the run's labels and {@code tags}), {@code GET /spend/logs?api_key=<hashed key>} (one row
 * per call made with the key; LiteLLM 1.106 caps the answer at its 10,000 latest rows) and {@code
 * POST /key/delete}. Shapes as in LiteLLM 1.106.12's proxy ({@code GenerateKeyResponse.token_id} is
 * the hashed key; cache tokens are in a row's {@code metadata.additional_usage_values}). Every request authenticates with the admin (master) key as
 * {@code Authorization: Bearer}, follows no redirect and ends within its timeout. Messages never
 * hold a key: an echoed body has both keys blanked.
 */
final class LiteLlmAdmin {
    /** A minted key: the key the CLI sends, and the hashed token the spend logs name it by. */
    record MintedKey(Secret key, String token) {
        MintedKey {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(token, "token");
        }
    }

    private static final int SNIPPET = 200;

    private final URI root;
    private final Secret adminKey;
    private final Duration timeout;
    private final HttpClient http;
    /** Spend as written (decimal text), not through a double. */
    private final ObjectMapper json = new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    /**
     * @param http the client (see {@link #client(Duration)})
     * @param root the gateway's root URL (no {@code /v1})
     * @param adminKey the master key
     * @param timeout how long one request may take
     */
    LiteLlmAdmin(HttpClient http, URI root, Secret adminKey, Duration timeout) {
        this.http = Objects.requireNonNull(http, "http");
        this.root = Objects.requireNonNull(root, "root");
        this.adminKey = Objects.requireNonNull(adminKey, "adminKey");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
    }

    /** The admin key's text, for a run's redaction list only. */
    String adminKey() {
        return adminKey.reveal();
    }

    /** A client for admin requests: connecting within {@code timeout}, never following a redirect (the key stays put). */
    static HttpClient client(Duration timeout) {
        return HttpClient.newBuilder().connectTimeout(timeout).followRedirects(HttpClient.Redirect.NEVER).build();
    }

    /** Mints a key that expires after {@code lifetime}, labelled with {@code metadata}, {@code tags} and {@code alias}. */
    MintedKey mint(Duration lifetime, Map<String, String> metadata, List<String> tags, String alias)
            throws GatewayException, InterruptedException {
        ObjectNode body = json.createObjectNode();
        body.put("duration", Math.max(1, lifetime.toSeconds()) + "s");
        body.put("key_alias", alias);
        ObjectNode meta = body.putObject("metadata");
        metadata.forEach(meta::put);
        // in the metadata: LiteLLM takes a top-level "tags" from premium (enterprise) users only, and
        // copies it to metadata.tags itself
        tags.forEach(meta.putArray("tags")::add);
        JsonNode answer = send("POST", "/key/generate", body.toString(), null);
        String key = answer.path("key").asText(null);
        if (key == null || key.isBlank()) {
            throw new GatewayException("POST " + root + "/key/generate answered without a \"key\"", false);
        }
        String token = answer.path("token_id").asText(null);
        if (token == null || token.isBlank() || token.equals(key)) {
            token = answer.path("token").asText(null);
        }
        if (token == null || token.isBlank() || token.equals(key)) {
            token = hash(key); // LiteLLM names a key by the SHA-256 of its text in the spend logs
        }
        return new MintedKey(Secret.of(key), token);
    }

    /** The spend rows of a key (by its hashed token), as the gateway has written them so far. */
    SpendSnapshot spend(MintedKey key) throws GatewayException, InterruptedException {
        String path = "/spend/logs?api_key=" + URLEncoder.encode(key.token(), StandardCharsets.UTF_8);
        JsonNode answer = send("GET", path, null, key.key());
        JsonNode rows = answer.isArray() ? answer : answer.path("data");
        if (!rows.isArray()) {
            throw new GatewayException("GET " + root + "/spend/logs answered " + describe(answer)
                    + ", not a list of spend rows", true);
        }
        List<SpendRow> out = new ArrayList<>();
        for (JsonNode r : rows) {
            out.add(row(r));
        }
        return new SpendSnapshot(out);
    }

    /** Deletes the key; the gateway refuses calls with it from then on. */
    void revoke(MintedKey key) throws GatewayException, InterruptedException {
        ObjectNode body = json.createObjectNode();
        body.putArray("keys").add(key.key().reveal());
        send("POST", "/key/delete", body.toString(), key.key());
    }

    private SpendRow row(JsonNode r) throws GatewayException {
        String id = r.path("request_id").asText(null);
        if (id == null || id.isBlank()) {
            throw new GatewayException("GET " + root + "/spend/logs listed a row without a request_id", true);
        }
        JsonNode meta = r.path("metadata");
        if (meta.isTextual()) { // stored as JSON text by some versions
            try {
                meta = json.readTree(meta.asText());
            } catch (IOException e) {
                meta = json.createObjectNode();
            }
        }
        // LiteLLM keeps usage beyond prompt/completion in metadata.additional_usage_values (and the
        // provider's usage in metadata.usage_object)
        JsonNode extra = meta.path("additional_usage_values");
        JsonNode usage = meta.path("usage_object");
        Long cacheRead = first(number(extra, "cache_read_input_tokens"), number(usage, "cache_read_input_tokens"),
                number(usage.path("prompt_tokens_details"), "cached_tokens"));
        Long cacheWrite = first(number(extra, "cache_creation_input_tokens"),
                number(usage, "cache_creation_input_tokens"));
        String model = r.path("model").asText(null);
        if ((model == null || model.isBlank()) && r.hasNonNull("model_group")) {
            model = r.path("model_group").asText();
        }
        BigDecimal spend = r.path("spend").isNumber() ? r.path("spend").decimalValue() : null;
        return new SpendRow(id, model, number(r, "prompt_tokens"), number(r, "completion_tokens"), cacheRead,
                cacheWrite, spend);
    }

    private static Long first(Long... values) {
        for (Long v : values) {
            if (v != null) {
                return v;
            }
        }
        return null;
    }

    private static Long number(JsonNode n, String field) {
        JsonNode v = n.path(field);
        return v.isIntegralNumber() && v.asLong() >= 0 ? v.asLong() : null;
    }

    /** One request; the JSON answer of a 2xx, else a {@link GatewayException} saying what happened. */
    private JsonNode send(String method, String pathAndQuery, String body, Secret runKey)
            throws GatewayException, InterruptedException {
        String what = method + " " + root + pathAndQuery.replaceFirst("\\?.*", "");
        HttpRequest.Builder rb = HttpRequest.newBuilder(URI.create(trim(root) + pathAndQuery)).timeout(timeout)
                .header("Authorization", "Bearer " + adminKey.reveal()).header("Accept", "application/json");
        if (body != null) {
            rb.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body));
        } else {
            rb.method(method, HttpRequest.BodyPublishers.noBody());
        }
        HttpResponse<String> r;
        try {
            r = http.send(rb.build(), HttpResponse.BodyHandlers.ofString());
        } catch (HttpTimeoutException e) {
            throw new GatewayException(what + ": no answer within " + timeout.toMillis() + " ms", true);
        } catch (ConnectException e) {
            throw new GatewayException(what + ": unreachable (connection refused or no route)", true);
        } catch (IOException e) {
            throw new GatewayException(what + ": " + e.getClass().getSimpleName()
                    + (e.getMessage() != null ? " " + blank(e.getMessage(), runKey) : ""), true);
        }
        int status = r.statusCode();
        if (status == 401 || status == 403) {
            throw new GatewayException(what + ": HTTP " + status + ", the admin key was refused (is it the proxy's"
                    + " master key?): " + snippet(r.body(), runKey), false);
        }
        if (status < 200 || status >= 300) {
            throw new GatewayException(what + ": HTTP " + status + ": " + snippet(r.body(), runKey),
                    status >= 500 || status == 429 || status == 408);
        }
        try {
            JsonNode n = json.readTree(r.body());
            if (n == null || n.isMissingNode()) {
                throw new GatewayException(what + ": HTTP " + status + " with an empty body", true);
            }
            return n;
        } catch (IOException e) {
            throw new GatewayException(what + ": HTTP " + status + " but the body is not JSON: "
                    + snippet(r.body(), runKey), true);
        }
    }

    private String snippet(String body, Secret runKey) {
        String s = body == null ? "" : body.strip().replaceAll("\\s+", " ");
        s = blank(s, runKey);
        return s.isEmpty() ? "(empty body)" : s.length() > SNIPPET ? s.substring(0, SNIPPET) + "..." : s;
    }

    private String blank(String text, Secret runKey) {
        String s = text.replace(adminKey.reveal(), Secret.REDACTED);
        return runKey == null ? s : s.replace(runKey.reveal(), Secret.REDACTED);
    }

    private static String describe(JsonNode n) {
        return n.isObject() ? "an object with fields " + iterable(n.fieldNames()) : "a JSON " + n.getNodeType();
    }

    private static List<String> iterable(java.util.Iterator<String> it) {
        List<String> out = new ArrayList<>();
        it.forEachRemaining(out::add);
        return out.size() > 8 ? out.subList(0, 8) : out;
    }

    private static String trim(URI u) {
        String s = u.toString();
        while (s.endsWith("/")) {
            s = s.substring(0, s.length() - 1);
        }
        return s;
    }

    static String hash(String key) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
