package dev.harness4j.core.provider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.api.HarnessException;
import dev.harness4j.api.Secret;
import dev.harness4j.core.internal.util.Json;
import java.io.IOException;
import java.net.ConnectException;
import java.net.ProxySelector;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP side of {@link Providers}: catalogue probes and health checks with the JDK {@link
 * HttpClient}. A request carries only the headers the provider's {@link AuthScheme} calls for
 * (see {@link #headers}); every request, body included, ends within its timeout; an Anthropic-style
 * model list is followed page by page ({@code has_more}, {@code after_id}) up to {@link
 * #MAX_CATALOGUE_PAGES}. Thread-safe.
 */
final class EndpointProbe {
    private static final Logger log = LoggerFactory.getLogger(EndpointProbe.class);

    /** The {@code anthropic-version} header value sent to Anthropic-style endpoints. */
    static final String ANTHROPIC_VERSION = "2023-06-01";
    /** A gateway's health path when none is configured: LiteLLM's {@value}. */
    static final String GATEWAY_HEALTH_PATH = "/health/readiness";

    /**
     * The most pages of one model list followed: {@value}. At {@link #PAGE_LIMIT} models a page
     * that is far more than any provider serves; a list still going on after it fails the probe
     * rather than being cut silently.
     */
    static final int MAX_CATALOGUE_PAGES = 50;

    /** The {@code limit} asked for on a follow-up page of an Anthropic-style list: {@value} (its maximum). */
    static final int PAGE_LIMIT = 1000;

    private static final int SNIPPET = 200;

    private final Duration connectTimeout;
    private final ObjectMapper mapper = Json.mapper();
    private volatile HttpClient http; // made on first use: resolving alone never needs HTTP

    EndpointProbe(Duration connectTimeout) {
        this.connectTimeout = connectTimeout;
    }

    private HttpClient http() {
        HttpClient h = http;
        if (h == null) {
            synchronized (this) {
                h = http;
                if (h == null) {
                    h = HttpClient.newBuilder()
                            .version(HttpClient.Version.HTTP_1_1)
                            .connectTimeout(connectTimeout)
                            .proxy(ProxySelector.getDefault())
                            .followRedirects(HttpClient.Redirect.NEVER) // never carry the key to another address
                            .build();
                    http = h;
                }
            }
        }
        return h;
    }

    /** The catalogue URLs to try, in order: Ollama's first for an Ollama-only provider. */
    static List<URI> catalogueUrls(ProviderConfig c) {
        return List.copyOf(catalogueEndpoints(c).keySet());
    }

    /** Which list an endpoint is. */
    private enum Route {
        /** The provider's own {@code /v1/models} (OpenAI, Anthropic, LiteLLM). */
        MODELS,
        /** Ollama's {@code /api/tags}. */
        TAGS,
        /** Google's {@code /v1beta/models}, key in {@code x-goog-api-key} ({@link GeminiModels}). */
        GEMINI
    }

    /**
     * The catalogue URLs in the order tried: Google's list first when the provider serves the
     * Gemini style (only it when that is the provider's one style: Google answers nothing else),
     * Ollama's first for an Ollama-only provider.
     */
    private static Map<URI, Route> catalogueEndpoints(ProviderConfig c) {
        Map<URI, Route> out = new LinkedHashMap<>();
        if (c.serves(ApiStyle.GEMINI)) {
            out.put(GeminiModels.listUrl(c), Route.GEMINI);
            if (c.apiStyles().equals(Set.of(ApiStyle.GEMINI))) {
                return out;
            }
        }
        String base = ProviderConfig.trimSlashes(c.baseUrl().toString());
        URI models = URI.create(base.endsWith("/v1") ? base + "/models" : base + "/v1/models");
        URI tags = URI.create(ProviderConfig.trimSlashes(c.rootUrl().toString()) + "/api/tags");
        if (c.apiStyles().equals(Set.of(ApiStyle.OLLAMA))) {
            out.put(tags, Route.TAGS);
            out.put(models, Route.MODELS);
        } else {
            out.put(models, Route.MODELS);
            out.put(tags, Route.TAGS);
        }
        return out;
    }

    private static Map<String, String> headers(ProviderConfig c, Route route, Secret key) {
        return route == Route.GEMINI ? GeminiModels.headers(key) : headers(c, route == Route.MODELS, key);
    }

    /**
     * The headers a request needs, and only those. {@code anthropic-version} goes to the
     * provider's own endpoints ({@code /v1/models}, the health path) when it serves the Anthropic
     * style. The key goes as {@code Authorization: Bearer} for {@link AuthScheme#BEARER}; for
     * {@link AuthScheme#API_KEY} as {@code x-api-key} to an Anthropic-style endpoint, else as a
     * bearer token, the way OpenAI-style and Ollama clients send an API key. Never both.
     */
    static Map<String, String> headers(ProviderConfig c, boolean ownEndpoint, Secret key) {
        boolean anthropic = ownEndpoint && c.serves(ApiStyle.ANTHROPIC);
        Map<String, String> h = new LinkedHashMap<>();
        h.put("accept", "application/json");
        if (anthropic) {
            h.put("anthropic-version", ANTHROPIC_VERSION);
        }
        if (key != null) {
            if (c.auth() == AuthScheme.API_KEY && anthropic && c.gateway() == null) { // a gateway's admin key: Bearer
                h.put("x-api-key", key.reveal());
            } else {
                h.put("Authorization", "Bearer " + key.reveal());
            }
        }
        return h;
    }

    Catalogue catalogue(ProviderConfig c, Secret key, Duration timeout) {
        List<String> attempts = new ArrayList<>();
        Exception last = null;
        for (Map.Entry<URI, Route> endpoint : catalogueEndpoints(c).entrySet()) {
            URI url = endpoint.getKey();
            boolean gemini = endpoint.getValue() == Route.GEMINI;
            Map<String, String> headers = headers(c, endpoint.getValue(), key);
            List<String> ids = new ArrayList<>();
            Catalogue.Shape shape = null;
            URI page = url;
            String failure = null;
            for (int pages = 1; failure == null; pages++) {
                Answer a = get(page, headers, timeout);
                if (a.failure != null) {
                    failure = "GET " + page + ": " + a.failure;
                    last = a.cause;
                    break;
                }
                if (a.status / 100 != 2) {
                    failure = "GET " + page + ": HTTP " + a.status + authHint(a.status, a.body, gemini, c, key)
                            + (gemini ? ": " + snippet(a.body, key) : "");
                    break;
                }
                JsonNode root = parse(a.body);
                Catalogue.Shape s = root == null ? null : gemini ? (GeminiModels.isList(root) ? Catalogue.Shape.GEMINI_MODELS : null)
                        : shape(root);
                if (s == null) {
                    failure = "GET " + page + ": HTTP " + a.status + " but not a model list ("
                            + (gemini ? "{\"models\":[{\"name\":\"models/..\"}]}" : "{\"data\":[{\"id\"}]} or {\"models\":[{\"name\"}]}")
                            + "): " + snippet(a.body, key);
                    break;
                }
                shape = s;
                ids.addAll(s == Catalogue.Shape.DATA_IDS ? ids(root.path("data"), "id")
                        : gemini ? GeminiModels.ids(root) : ids(root.path("models"), "name", "model"));
                URI next = gemini ? GeminiModels.nextPage(url, root) : null;
                if (gemini && next != null && pages < MAX_CATALOGUE_PAGES) {
                    page = next;
                    continue;
                }
                if (gemini && next != null) {
                    failure = "GET " + url + ": the model list goes on after " + MAX_CATALOGUE_PAGES + " pages ("
                            + ids.size() + " models so far, nextPageToken still given); not using a partial list";
                    break;
                }
                if (s != Catalogue.Shape.DATA_IDS || !root.path("has_more").asBoolean(false)) {
                    break;
                }
                String lastId = root.path("last_id").asText("");
                if (lastId.isBlank()) {
                    failure = "GET " + page + ": the model list says has_more but gives no last_id to continue"
                            + " from; not using a partial list of " + ids.size() + " models";
                } else if (pages == MAX_CATALOGUE_PAGES) {
                    failure = "GET " + url + ": the model list goes on after " + MAX_CATALOGUE_PAGES + " pages ("
                            + ids.size() + " models so far, has_more still true); not using a partial list";
                } else {
                    page = URI.create(url + "?after_id=" + URLEncoder.encode(lastId, StandardCharsets.UTF_8)
                            + "&limit=" + PAGE_LIMIT);
                }
            }
            if (failure != null) {
                attempts.add(failure);
                continue;
            }
            Catalogue cat = new Catalogue(c.name(), url, shape, List.copyOf(new TreeSet<>(ids)));
            log.debug("provider {}: catalogue of {} models from {}", c.name(), cat.models().size(), url);
            return cat;
        }
        throw new ProviderUnreachableException(c.name(), attempts, last);
    }

    HealthCheck health(ProviderConfig c, Secret key, Duration timeout) {
        long start = System.nanoTime();
        String healthPath = c.healthPath() != null ? c.healthPath() : c.gateway() != null ? GATEWAY_HEALTH_PATH : null;
        Map<URI, Route> urls = healthPath != null
                ? Map.of(URI.create(ProviderConfig.trimSlashes(c.rootUrl().toString()) + healthPath), Route.MODELS)
                : catalogueEndpoints(c);
        URI reported = urls.keySet().iterator().next();
        Integer status = null;
        String detail = null;
        for (Map.Entry<URI, Route> endpoint : urls.entrySet()) {
            URI url = endpoint.getKey();
            Answer a = get(url, headers(c, endpoint.getValue(), key), timeout);
            if (a.failure == null && a.status / 100 == 2) {
                return new HealthCheck(c.name(), url, a.status, true, "HTTP " + a.status,
                        Duration.ofNanos(System.nanoTime() - start));
            }
            // report the first real answer other than 404 (a 401 says more than a missing path)
            boolean better = detail == null || (status == null && a.failure == null)
                    || (status != null && status == 404 && a.failure == null && a.status != 404);
            if (better) {
                reported = url;
                status = a.failure == null ? a.status : null;
                detail = a.failure != null ? a.failure
                        : "HTTP " + a.status + authHint(a.status, a.body, endpoint.getValue() == Route.GEMINI, c, key)
                                + ": " + snippet(a.body, key);
            }
        }
        HealthCheck h = new HealthCheck(c.name(), reported, status, false, detail,
                Duration.ofNanos(System.nanoTime() - start));
        log.debug("provider {}: unhealthy at {}: {}", c.name(), reported, h.detail());
        return h;
    }

    private static String authHint(int status, String body, boolean gemini, ProviderConfig c, Secret key) {
        boolean refused = gemini ? GeminiModels.keyRefused(status, body) : status == 401 || status == 403;
        if (!refused) {
            return "";
        }
        if (c.gateway() != null) { // the probe sends the admin key, else the provider's key
            String admin = ConfigValues.envName(c.gateway().adminKeyEnv());
            String own = c.keyEnv() == null ? null : ConfigValues.envName(c.keyEnv());
            if (key == null) {
                return own == null ? " (no key sent: the gateway's admin key variable " + admin + " is not set)"
                        : " (no key sent: neither the gateway's admin key variable " + admin
                                + " nor the provider's key variable " + own + " is set; set " + admin + ")";
            }
            return " (the gateway's admin key, or the provider's key"
                    + (own == null ? "" : " in " + own) + " when " + admin + " is unset, was refused)";
        }
        if (c.keyEnv() == null) {
            return " (the endpoint wants a key; set key_env to the environment variable holding it)";
        }
        String variable = ConfigValues.envName(c.keyEnv());
        return key == null ? " (no key sent: environment variable " + variable + " is not set)"
                : " (the key in environment variable " + variable + " was refused)";
    }

    /**
     * One GET, ended within {@code timeout} whatever the endpoint does: the request's own timeout
     * bounds the wait for the headers, and the whole exchange (the body too) is awaited for no
     * longer than the same time, then cancelled.
     */
    private Answer get(URI url, Map<String, String> headers, Duration timeout) {
        HttpRequest.Builder rb = HttpRequest.newBuilder(url).GET().timeout(timeout);
        headers.forEach(rb::header);
        AtomicInteger headersStatus = new AtomicInteger();
        HttpResponse.BodyHandler<String> body = info -> {
            headersStatus.set(info.statusCode());
            return HttpResponse.BodySubscribers.ofString(StandardCharsets.UTF_8);
        };
        CompletableFuture<HttpResponse<String>> exchange = http().sendAsync(rb.build(), body);
        try {
            HttpResponse<String> r = exchange.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
            return new Answer(r.statusCode(), r.body(), null, null);
        } catch (TimeoutException e) {
            exchange.cancel(true);
            int status = headersStatus.get();
            String failure = status == 0
                    ? "no answer within " + timeout.toMillis() + " ms (timed out)"
                    : "HTTP " + status + " but the response body did not arrive in full within " + timeout.toMillis()
                            + " ms (timed out waiting for the body)";
            return new Answer(0, "", failure, e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            Exception ex = cause instanceof Exception x ? x : e;
            if (cause instanceof HttpTimeoutException) {
                return new Answer(0, "", "no answer within " + timeout.toMillis() + " ms (timed out)", ex);
            }
            if (cause instanceof ConnectException) {
                return new Answer(0, "", "connection refused or unreachable (" + cause.getClass().getSimpleName()
                        + ")", ex);
            }
            return new Answer(0, "", "request failed: " + cause, ex);
        } catch (InterruptedException e) {
            exchange.cancel(true);
            Thread.currentThread().interrupt();
            throw new HarnessException("interrupted while probing " + url, e);
        }
    }

    private JsonNode parse(String body) {
        try {
            return mapper.readTree(body);
        } catch (IOException e) {
            return null;
        }
    }

    private static Catalogue.Shape shape(JsonNode root) {
        if (root.path("data").isArray()) {
            return Catalogue.Shape.DATA_IDS;
        }
        return root.path("models").isArray() ? Catalogue.Shape.MODELS_NAMES : null;
    }

    private static List<String> ids(JsonNode array, String... fields) {
        List<String> out = new ArrayList<>();
        for (JsonNode entry : array) {
            for (String f : fields) {
                String id = entry.path(f).asText("");
                if (!id.isBlank()) {
                    out.add(id);
                    break;
                }
            }
        }
        return out;
    }

    /** The start of a body for an error message, with the key blanked should the endpoint echo it. */
    private static String snippet(String body, Secret key) {
        String s = body == null ? "" : body.strip().replaceAll("\\s+", " ");
        if (key != null) {
            s = s.replace(key.reveal(), Secret.REDACTED);
        }
        return s.isEmpty() ? "(empty body)" : s.length() > SNIPPET ? s.substring(0, SNIPPET) + "..." : s;
    }

    private record Answer(int status, String body, String failure, Exception cause) {}
}
