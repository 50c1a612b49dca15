package dev.harness4j.api;

import java.net.URI;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * A provider endpoint resolved for one run: where to send requests, in which wire format, with
 * which key, for which model.
 *
 * @param name the provider's configured name
 * @param apiStyles the API styles the endpoint serves (at least one)
 * @param baseUrl the endpoint root without a trailing {@code /v1}, e.g. {@code
 *     http://127.0.0.1:8080}
 * @param secret the key, or {@code null} when the endpoint needs none; prints as {@code ***}
 * @param auth how the key is sent
 * @param model the resolved model id (the run's requested model, else the provider's default)
 */
public record ResolvedProvider(
        String name, Set<ApiStyle> apiStyles, URI baseUrl, Secret secret, AuthScheme auth, String model) {

    /**
     * Checks the parts and copies the API styles.
     *
     * @param name the provider's configured name
     * @param apiStyles the API styles the endpoint serves, at least one
     * @param baseUrl the endpoint root
     * @param secret the key, or {@code null}
     * @param auth how the key is sent
     * @param model the resolved model id, not blank
     * @throws IllegalArgumentException for no API style or a blank model
     */
    public ResolvedProvider {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(apiStyles, "apiStyles");
        if (apiStyles.isEmpty()) {
            throw new IllegalArgumentException("provider " + name + " must serve at least one API style");
        }
        apiStyles = Set.copyOf(EnumSet.copyOf(apiStyles));
        Objects.requireNonNull(baseUrl, "baseUrl");
        Objects.requireNonNull(auth, "auth");
        Objects.requireNonNull(model, "model");
        if (model.isBlank()) {
            throw new IllegalArgumentException("model must not be blank");
        }
    }

    /**
     * Whether the endpoint serves the given API style.
     *
     * @param style an API style
     * @return whether the endpoint serves it
     */
    public boolean serves(ApiStyle style) {
        return apiStyles.contains(style);
    }

    /**
     * The base URL with {@code /v1} appended once (no double {@code /v1/v1}).
     *
     * @return the {@code /v1} URL
     */
    public String v1Url() {
        String base = baseUrl.toString();
        while (base.endsWith("/")) {
            base = base.substring(0, base.length() - 1);
        }
        return base.endsWith("/v1") ? base : base + "/v1";
    }

    /**
     * The base URL without a trailing slash or {@code /v1}.
     *
     * @return the root URL
     */
    public String rootUrl() {
        String v1 = v1Url();
        return v1.substring(0, v1.length() - "/v1".length());
    }

    /**
     * A copy for another model.
     *
     * @param value the model id
     * @return the copy
     */
    public ResolvedProvider withModel(String value) {
        return new ResolvedProvider(name, apiStyles, baseUrl, secret, auth, value);
    }
}
