package dev.harness4j.core.provider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.HarnessException;
import dev.harness4j.api.Secret;
import dev.harness4j.core.internal.Json;
import java.io.IOException;
import java.net.ConnectException;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP side of {@link Providers}: catalogue probes and health checks with the JDK {@link
 * HttpClient}. Every request carries the key (when there is one) both as {@code Authorization:
 * Bearer} and as {@code x-api-key}, plus {@code anthropic-version}, so an authenticated endpoint
 * of any style answers. Thread-safe.
 */
final class EndpointProbe {
    private static final Logger log = LoggerFactory.getLogger(EndpointProbe.class);

    /** The {@code anthropic-version} header value sent with every probe. */
    static final String ANTHROPIC_VERSION = "2023-06-01";

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
        String base = ProviderConfig.trimSlashes(c.baseUrl().toString());
        URI models = URI.create(base.endsWith("/v1") ? base + "/models" : base + "/v1/models");
        URI tags = URI.create(ProviderConfig.trimSlashes(c.rootUrl().toString()) + "/api/tags");
        boolean ollamaOnly = c.apiStyles().equals(Set.of(ApiStyle.OLLAMA));
        return ollamaOnly ? List.of(tags, models) : List.of(models, tags);
    }

    Catalogue catalogue(ProviderConfig c, Secret key, Duration timeout) {
        List<String> attempts = new ArrayList<>();
        Exception last = null;
        for (URI url : catalogueUrls(c)) {
            Answer a = get(url, key, timeout);
            if (a.failure != null) {
                attempts.add("GET " + url + ": " + a.failure);
                last = a.cause;
                continue;
            }
            if (a.status / 100 != 2) {
                attempts.add("GET " + url + ": HTTP " + a.status + authHint(a.status, c, key));
                continue;
            }
            Optional<Catalogue> parsed = parse(c.name(), url, a.body);
            if (parsed.isPresent()) {
                log.debug("provider {}: catalogue of {} models from {}", c.name(), parsed.get().models().size(), url);
                return parsed.get();
            }
            attempts.add("GET " + url + ": HTTP " + a.status + " but not a model list ({\"data\":[{\"id\"}]} or"
                    + " {\"models\":[{\"name\"}]}): " + snippet(a.body, key));
        }
        throw new ProviderUnreachableException(c.name(), attempts, last);
    }

    HealthCheck health(ProviderConfig c, Secret key, Duration timeout) {
        long start = System.nanoTime();
        List<URI> urls = c.healthPath() != null
                ? List.of(URI.create(ProviderConfig.trimSlashes(c.rootUrl().toString()) + c.healthPath()))
                : catalogueUrls(c);
        URI reported = urls.get(0);
        Integer status = null;
        String detail = null;
        for (URI url : urls) {
            Answer a = get(url, key, timeout);
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
                        : "HTTP " + a.status + authHint(a.status, c, key) + ": " + snippet(a.body, key);
            }
        }
        HealthCheck h = new HealthCheck(c.name(), reported, status, false, detail,
                Duration.ofNanos(System.nanoTime() - start));
        log.debug("provider {}: unhealthy at {}: {}", c.name(), reported, h.detail());
        return h;
    }

    private static String authHint(int status, ProviderConfig c, Secret key) {
        if (status != 401 && status != 403) {
            return "";
        }
        if (c.keyEnv() == null) {
            return " (the endpoint wants a key; set key_env to the environment variable holding it)";
        }
        return key == null ? " (no key sent: environment variable " + c.keyEnv() + " is not set)"
                : " (the key in environment variable " + c.keyEnv() + " was refused)";
    }

    private Answer get(URI url, Secret key, Duration timeout) {
        HttpRequest.Builder rb = HttpRequest.newBuilder(url).GET().timeout(timeout)
                .header("accept", "application/json")
                .header("anthropic-version", ANTHROPIC_VERSION);
        if (key != null) {
            rb.header("Authorization", "Bearer " + key.reveal()).header("x-api-key", key.reveal());
        }
        try {
            HttpResponse<String> r = http().send(rb.build(), HttpResponse.BodyHandlers.ofString());
            return new Answer(r.statusCode(), r.body(), null, null);
        } catch (HttpTimeoutException e) {
            return new Answer(0, "", "no answer within " + timeout.toMillis() + " ms (timed out)", e);
        } catch (ConnectException e) {
            return new Answer(0, "", "connection refused or unreachable (" + e.getClass().getSimpleName() + ")", e);
        } catch (IOException e) {
            return new Answer(0, "", "request failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new HarnessException("interrupted while probing " + url, e);
        }
    }

    private Optional<Catalogue> parse(String provider, URI url, String body) {
        JsonNode root;
        try {
            root = mapper.readTree(body);
        } catch (IOException e) {
            return Optional.empty();
        }
        if (root == null) {
            return Optional.empty();
        }
        if (root.path("data").isArray()) {
            return Optional.of(new Catalogue(provider, url, Catalogue.Shape.DATA_IDS, ids(root.path("data"), "id")));
        }
        if (root.path("models").isArray()) {
            return Optional.of(new Catalogue(provider, url, Catalogue.Shape.MODELS_NAMES,
                    ids(root.path("models"), "name", "model")));
        }
        return Optional.empty();
    }

    private static List<String> ids(JsonNode array, String... fields) {
        TreeSet<String> out = new TreeSet<>();
        for (JsonNode entry : array) {
            for (String f : fields) {
                String id = entry.path(f).asText("");
                if (!id.isBlank()) {
                    out.add(id);
                    break;
                }
            }
        }
        return List.copyOf(out);
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
