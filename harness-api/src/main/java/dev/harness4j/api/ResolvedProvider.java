package dev.harness4j.api;

import java.net.URI;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * A provider endpoint resolved for one run: where to send requests, in which wire format, with
 * which key, for which model.
 *
 * <p>Or no endpoint at all: a provider made by {@link #cliLogin} stands for "the CLI's own login"
 * (a CLI that reaches its vendor's models by itself, signed in with its own login command). It
 * has no base URL, no API style and no key; {@link #usesCliLogin()} says so, {@link #v1Url()}
 * and {@link #rootUrl()} refuse, and the runner does not meter its traffic (there is nothing to
 * point at the meter). An adapter whose CLI cannot work that way refuses it in {@code prepare}.
 *
 * @param name the provider's configured name
 * @param apiStyles the API styles the endpoint serves (at least one; none for the CLI's own login)
 * @param baseUrl the endpoint root without a trailing {@code /v1}, e.g. {@code
 *     http://127.0.0.1:8080}; {@code null} only for the CLI's own login
 * @param secret the key, or {@code null} when the endpoint needs none (always for the CLI's own
 *     login); prints as {@code ***}
 * @param auth how the key is sent
 * @param model the resolved model id (the run's requested model, else the provider's default)
 */
public record ResolvedProvider(
        String name, Set<ApiStyle> apiStyles, URI baseUrl, Secret secret, AuthScheme auth, String model) {

    /**
     * Checks the parts and copies the API styles.
     *
     * @param name the provider's configured name
     * @param apiStyles the API styles the endpoint serves, at least one (none when {@code baseUrl}
     *     is {@code null})
     * @param baseUrl the endpoint root, or {@code null} for the CLI's own login
     * @param secret the key, or {@code null}
     * @param auth how the key is sent
     * @param model the resolved model id, not blank
     * @throws IllegalArgumentException for an endpoint without an API style, a CLI login with an
     *     API style or a key, or a blank model
     */
    public ResolvedProvider {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(apiStyles, "apiStyles");
        if (baseUrl == null && (!apiStyles.isEmpty() || secret != null)) {
            throw new IllegalArgumentException("provider " + name + " has no base URL, so it is the CLI's own login: "
                    + "it takes no API style and no key (give it a base URL to make it an endpoint)");
        }
        if (baseUrl != null && apiStyles.isEmpty()) {
            throw new IllegalArgumentException("provider " + name + " must serve at least one API style");
        }
        apiStyles = apiStyles.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(apiStyles));
        Objects.requireNonNull(auth, "auth");
        Objects.requireNonNull(model, "model");
        if (model.isBlank()) {
            throw new IllegalArgumentException("model must not be blank");
        }
    }

    /**
     * A provider that is the CLI's own login: no endpoint, no API style, no key; the CLI reaches
     * its model by itself.
     *
     * @param name the provider's configured name
     * @param model the model the CLI is asked to use
     * @return the provider
     */
    public static ResolvedProvider cliLogin(String name, String model) {
        return new ResolvedProvider(name, Set.of(), null, null, AuthScheme.API_KEY, model);
    }

    /**
     * Whether this provider is the CLI's own login rather than an endpoint (see {@link #cliLogin}).
     *
     * @return whether there is no endpoint
     */
    public boolean usesCliLogin() {
        return baseUrl == null;
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
     * @throws IllegalStateException for the CLI's own login, which has no URL
     */
    public String v1Url() {
        if (baseUrl == null) {
            throw new IllegalStateException("provider " + name + " is the CLI's own login: it has no base URL");
        }
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
     * @throws IllegalStateException for the CLI's own login, which has no URL
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
