package dev.harness4j.core.provider;

import com.fasterxml.jackson.databind.JsonNode;
import dev.harness4j.api.Secret;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Google's Gemini API model list, the way {@link EndpointProbe} asks it of a provider that serves
 * {@link dev.harness4j.api.ApiStyle#GEMINI}: {@code GET {root}/v1beta/models} with the key in the
 * {@code x-goog-api-key} header (never in the URL, so never in a log line or an error message that
 * names the URL), answered as {@code {"models":[{"name":"models/<id>"}], "nextPageToken":..}}.
 * Google answers neither {@code /v1/models} nor a bearer token, whatever the provider's auth scheme.
 */
final class GeminiModels {
    /** The page size asked for on a follow-up page: {@value} (Google's maximum). */
    static final int PAGE_SIZE = 1000;

    private static final String PREFIX = "models/";

    private GeminiModels() {}

    /** {@code {root}/v1beta/models}; a base URL already ending in {@code /v1beta} is not given a second one. */
    static URI listUrl(ProviderConfig c) {
        String root = ProviderConfig.trimSlashes(c.rootUrl().toString());
        if (root.endsWith("/v1beta")) {
            root = root.substring(0, root.length() - "/v1beta".length());
        }
        return URI.create(root + "/v1beta/models");
    }

    /** {@code accept} and, when there is a key, {@code x-goog-api-key}: nothing else. */
    static Map<String, String> headers(Secret key) {
        Map<String, String> h = new LinkedHashMap<>();
        h.put("accept", "application/json");
        if (key != null) {
            h.put("x-goog-api-key", key.reveal());
        }
        return h;
    }

    /** Whether the answer is Google's model list: a {@code models} array. */
    static boolean isList(JsonNode root) {
        return root.path("models").isArray();
    }

    /** The ids of one page, {@code models/} dropped from each {@code name}. */
    static List<String> ids(JsonNode root) {
        List<String> out = new ArrayList<>();
        for (JsonNode m : root.path("models")) {
            String name = m.path("name").asText("");
            String id = name.startsWith(PREFIX) ? name.substring(PREFIX.length()) : name;
            if (!id.isBlank()) {
                out.add(id);
            }
        }
        return out;
    }

    /** The next page's URL, or {@code null} when the answer has no {@code nextPageToken}. */
    static URI nextPage(URI list, JsonNode root) {
        String token = root.path("nextPageToken").asText("");
        return token.isBlank() ? null
                : URI.create(list + "?pageSize=" + PAGE_SIZE + "&pageToken=" + URLEncoder.encode(token, StandardCharsets.UTF_8));
    }

    /**
     * Whether a refusal is about the key: 401 and 403 as everywhere, and Google's 400 for a key it
     * does not know; the rule a run's outcome follows too ({@link dev.harness4j.api.support.Outcomes#refusesKey}).
     */
    static boolean keyRefused(int status, String body) {
        return dev.harness4j.api.support.Outcomes.refusesKey(status, body);
    }
}
