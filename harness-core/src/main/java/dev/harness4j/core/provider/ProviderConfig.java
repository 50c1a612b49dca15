package dev.harness4j.core.provider;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * One provider endpoint as configured: where it is, which wire formats it serves, the
 * <em>name</em> of the environment variable holding its key, and its model catalogue. A config
 * never holds a key.
 *
 * <pre>{@code
 * ProviderConfig anthropic = ProviderConfig.builder("anthropic")
 *         .apiStyles(ApiStyle.ANTHROPIC)
 *         .baseUrl("https://api.anthropic.com")
 *         .key("ANTHROPIC_API_KEY", AuthScheme.API_KEY)
 *         .models("claude-sonnet-4-5", "claude-haiku-4-5")
 *         .defaultModel("claude-sonnet-4-5")
 *         .build();
 * }</pre>
 *
 * <p>A provider can also be the CLI's own login: no endpoint, API style or key, only models
 * ({@link Builder#cliLogin()}, {@code "cli_login": true} in the file). A run on it hands the
 * adapter {@link dev.harness4j.api.ResolvedProvider#cliLogin}; the CLI reaches its model by
 * itself and the meter has nothing to proxy.
 *
 * <p>The same providers as JSON ({@code <stateDir>/config/providers.json}, read by {@link
 * ProvidersFile}) are in {@code dev/harness4j/core/provider/providers-example.json}.
 *
 * @param name the provider's name, as a run spec names it ({@code [A-Za-z0-9._-]+})
 * @param apiStyles the wire formats the endpoint serves (a gateway may serve several); none for
 *     the CLI's own login
 * @param baseUrl the endpoint's http(s) URL, with or without a trailing {@code /v1}; {@code null}
 *     for the CLI's own login
 * @param keyEnv the name of the environment variable holding the key, or {@code null} when the
 *     endpoint takes none
 * @param auth how the key is sent ({@link AuthScheme#API_KEY} or {@link AuthScheme#BEARER})
 * @param keyRequired whether a missing {@code keyEnv} variable fails resolution (when false the
 *     provider resolves without a key)
 * @param models the model catalogue, de-duplicated, in the given order
 * @param defaultModel the model used when a run asks for none, or {@code null}
 * @param healthPath the path probed by a health check, relative to the endpoint root (the base
 *     URL without {@code /v1}), or {@code null} to probe the catalogue endpoint
 * @param gateway the gateway in front of the models, or {@code null}
 * @param prices the price of each model by id (USD per million tokens), for a cost from metered
 *     tokens; a model without one has no metered cost ({@code "prices"} in the file)
 */
public record ProviderConfig(
        String name,
        Set<ApiStyle> apiStyles,
        URI baseUrl,
        String keyEnv,
        AuthScheme auth,
        boolean keyRequired,
        List<String> models,
        String defaultModel,
        String healthPath,
        Gateway gateway,
        Map<String, ModelPrice> prices) {

    /** The name of the provider for the scripted model server: {@value}. */
    public static final String SCRIPTED = "scripted";

    /** The environment variable the {@link #scripted(URI)} provider reads its optional key from: {@value}. */
    public static final String SCRIPTED_KEY_ENV = "HARNESS4J_SCRIPTED_KEY";

    public ProviderConfig {
        ProviderConfigChecks.checkName(name);
        Objects.requireNonNull(apiStyles, "apiStyles");
        ProviderConfigChecks.checkShape(name, apiStyles, baseUrl, keyEnv, gateway, healthPath);
        apiStyles = apiStyles.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(apiStyles));
        if (baseUrl != null) {
            ProviderConfigChecks.checkHttpUrl(name, baseUrl);
        }
        if (keyEnv != null) {
            ProviderConfigChecks.checkEnvName(name, "key_env", keyEnv);
        }
        Objects.requireNonNull(auth, "auth");
        models = ProviderConfigChecks.uniqueModels(name, Objects.requireNonNull(models, "models"));
        if (defaultModel != null && defaultModel.isBlank()) {
            throw new IllegalArgumentException("default_model of provider '" + name + "' is blank; omit it instead");
        }
        prices = Map.copyOf(Objects.requireNonNull(prices, "prices"));
        ProviderConfigChecks.checkHealthPath(name, healthPath);
    }

    /** A provider without prices (see the canonical constructor for the parts). */
    public ProviderConfig(String name, Set<ApiStyle> apiStyles, URI baseUrl, String keyEnv, AuthScheme auth,
            boolean keyRequired, List<String> models, String defaultModel, String healthPath, Gateway gateway) {
        this(name, apiStyles, baseUrl, keyEnv, auth, keyRequired, models, defaultModel, healthPath, gateway, Map.of());
    }

    /**
     * The provider for the scripted model server (harness-testkit), the embedded default: name
     * {@value #SCRIPTED}, serves {@link ApiStyle#ANTHROPIC}, {@link ApiStyle#OPENAI} and {@link ApiStyle#GEMINI}, key
     * optional in {@value #SCRIPTED_KEY_ENV} (the server accepts any key unless told to require
     * one), no default model.
     */
    public static ProviderConfig scripted(URI baseUrl) {
        return builder(SCRIPTED)
                .apiStyles(ApiStyle.ANTHROPIC, ApiStyle.OPENAI, ApiStyle.GEMINI)
                .baseUrl(baseUrl)
                .key(SCRIPTED_KEY_ENV, AuthScheme.API_KEY)
                .keyOptional()
                .build();
    }

    /** {@link #scripted(URI)} with a default model, e.g. a model id the server has a script for. */
    public static ProviderConfig scripted(URI baseUrl, String defaultModel) {
        return scripted(baseUrl).withDefaultModel(defaultModel);
    }

    public static Builder builder(String name) {
        return new Builder(name);
    }

    /** A builder pre-filled with this config. */
    public Builder toBuilder() {
        Builder b = new Builder(name).apiStyles(apiStyles).models(models)
                .defaultModel(defaultModel).healthPath(healthPath).gateway(gateway).prices(prices);
        b.baseUrl = baseUrl;
        b.cliLogin = baseUrl == null;
        b.keyEnv = keyEnv;
        b.auth = auth;
        b.keyRequired = keyRequired;
        return b;
    }

    public Optional<String> keyEnvName() {
        return Optional.ofNullable(keyEnv);
    }

    public Optional<String> defaultModelName() {
        return Optional.ofNullable(defaultModel);
    }

    public Optional<Gateway> gatewayConfig() {
        return Optional.ofNullable(gateway);
    }

    /** Whether this provider is the CLI's own login: no endpoint, the CLI reaches its model by itself. */
    public boolean cliLogin() {
        return baseUrl == null;
    }

    /** Whether the endpoint serves the given API style. */
    public boolean serves(ApiStyle style) {
        return apiStyles.contains(style);
    }

    /** The base URL without a trailing slash or {@code /v1}: the root health paths hang from. */
    public URI rootUrl() {
        if (baseUrl == null) {
            throw new IllegalStateException("provider '" + name + "' is the CLI's own login: it has no URL");
        }
        String s = trimSlashes(baseUrl.toString());
        return URI.create(s.endsWith("/v1") ? s.substring(0, s.length() - 3) : s);
    }

    public ProviderConfig withModels(Collection<String> value) {
        return new ProviderConfig(name, apiStyles, baseUrl, keyEnv, auth, keyRequired, List.copyOf(value),
                defaultModel, healthPath, gateway, prices);
    }

    public ProviderConfig withDefaultModel(String value) {
        return new ProviderConfig(name, apiStyles, baseUrl, keyEnv, auth, keyRequired, models, value, healthPath,
                gateway, prices);
    }

    static String trimSlashes(String s) {
        String out = s;
        while (out.endsWith("/")) {
            out = out.substring(0, out.length() - 1);
        }
        return out;
    }

    /**
     * A gateway in front of the models, whose admin API the library may call (for example to
     * mint per-run keys and read spend).
     *
     * @param type the gateway product
     * @param adminKeyEnv the name of the environment variable holding the admin (master) key
     */
    public record Gateway(Type type, String adminKeyEnv) {
        public Gateway {
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(adminKeyEnv, "adminKeyEnv");
            ProviderConfigChecks.checkEnvName("(gateway)", "admin_key_env", adminKeyEnv);
        }

        /** A LiteLLM proxy whose master key is in the named environment variable. */
        public static Gateway litellm(String adminKeyEnv) {
            return new Gateway(Type.LITELLM, adminKeyEnv);
        }

        /** The gateway products known. */
        public enum Type {
            /** The LiteLLM proxy ({@code /key/generate}, {@code /spend/logs}). */
            LITELLM("litellm");

            private final String wireName;

            Type(String wireName) {
                this.wireName = wireName;
            }

            /** The name used in providers.json. */
            public String wireName() {
                return wireName;
            }
        }
    }

    /** Builds a {@link ProviderConfig}; a bad argument fails in its setter. Not thread-safe. */
    public static final class Builder {
        private final String name;
        private Set<ApiStyle> apiStyles = EnumSet.noneOf(ApiStyle.class);
        private URI baseUrl;
        private String keyEnv;
        private AuthScheme auth = AuthScheme.API_KEY;
        private boolean keyRequired = true;
        private List<String> models = new ArrayList<>();
        private String defaultModel;
        private String healthPath;
        private Gateway gateway;
        private boolean cliLogin;
        private final Map<String, ModelPrice> prices = new LinkedHashMap<>();

        private Builder(String name) {
            this.name = Objects.requireNonNull(name, "name");
        }

        public Builder apiStyles(ApiStyle... styles) {
            return apiStyles(Arrays.asList(styles));
        }

        public Builder apiStyles(Collection<ApiStyle> styles) {
            this.apiStyles = styles.isEmpty() ? EnumSet.noneOf(ApiStyle.class) : EnumSet.copyOf(styles);
            return this;
        }

        public Builder baseUrl(String url) {
            this.baseUrl = ProviderConfigChecks.parseUrl(name, url);
            return this;
        }

        public Builder baseUrl(URI url) {
            ProviderConfigChecks.checkHttpUrl(name, Objects.requireNonNull(url, "url"));
            this.baseUrl = url;
            return this;
        }

        /** The key comes from environment variable {@code envName}, sent as {@code scheme}. */
        public Builder key(String envName, AuthScheme scheme) {
            ProviderConfigChecks.checkEnvName(name, "key_env", Objects.requireNonNull(envName, "envName"));
            ProviderConfigChecks.warnIfKeyLike(name, "key_env", envName);
            this.keyEnv = envName;
            this.auth = Objects.requireNonNull(scheme, "scheme");
            return this;
        }

        /** Resolve without a key when the key variable is not set (local endpoints that take any key). */
        public Builder keyOptional() {
            this.keyRequired = false;
            return this;
        }

        public Builder models(String... ids) {
            return models(Arrays.asList(ids));
        }

        public Builder models(Collection<String> ids) {
            this.models = new ArrayList<>(ids);
            return this;
        }

        public Builder defaultModel(String id) {
            this.defaultModel = id;
            return this;
        }

        public Builder healthPath(String path) {
            this.healthPath = path;
            return this;
        }

        public Builder gateway(Gateway value) {
            if (value != null) {
                ProviderConfigChecks.warnIfKeyLike(name, "gateway.admin_key_env", value.adminKeyEnv());
            }
            this.gateway = value;
            return this;
        }

        /** The price of one model (USD per million tokens), for a cost from metered tokens. */
        public Builder price(String model, ModelPrice price) {
            prices.put(Objects.requireNonNull(model, "model"), Objects.requireNonNull(price, "price"));
            return this;
        }

        /** Adds the prices of several models. */
        public Builder prices(Map<String, ModelPrice> value) {
            value.forEach(this::price);
            return this;
        }

        /**
         * Makes this provider the CLI's own login: no base URL, API style, key, gateway or health
         * path may be set.
         */
        public Builder cliLogin() {
            this.cliLogin = true;
            return this;
        }

        /**
         * Builds the config.
         *
         * @throws IllegalArgumentException when neither a base URL nor the CLI's own login was set,
         *     both were, or a value does not fit the rest (no API style for an endpoint, say)
         */
        public ProviderConfig build() {
            if (cliLogin && baseUrl != null) {
                throw new IllegalArgumentException("provider '" + name + "' is the CLI's own login and has a base_url "
                        + baseUrl + "; drop one of them");
            }
            if (baseUrl == null && !cliLogin) {
                throw new IllegalArgumentException("provider '" + name + "' needs a base_url (or cli_login: true for a "
                        + "CLI that reaches its model with its own login)");
            }
            return new ProviderConfig(name, apiStyles, baseUrl, keyEnv, auth, keyRequired, models, defaultModel,
                    healthPath, gateway, prices);
        }
    }
}
