package dev.harness4j.core.provider;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The shape Jackson binds a {@link ProvidersFile} to: the top level, one provider entry, a
 * model's price, a gateway. Each builds (and so validates) its part while parsing; a bad value
 * fails with an {@link IllegalArgumentException} that {@link ProvidersFileCheck#describe} places in
 * the file.
 */
final class ProvidersFileEntries {
    private ProvidersFileEntries() {}

    /** The file's top level. */
    static final class FileEntry {
        final List<Entry> providers;

        @JsonCreator
        FileEntry(@JsonProperty("schema_version") Integer schemaVersion,
                @JsonProperty("providers") List<Entry> providers) {
            if (schemaVersion != null && schemaVersion != ProvidersFile.SCHEMA_VERSION) {
                throw new IllegalArgumentException("schema_version " + schemaVersion + " is not supported; this"
                        + " version of harness4j reads " + ProvidersFile.SCHEMA_VERSION);
            }
            if (providers == null) {
                throw new IllegalArgumentException("missing \"providers\": [...]");
            }
            this.providers = List.copyOf(providers);
        }
    }

    /** One provider as written in the file; builds (and so validates) its config while parsing. */
    static final class Entry {
        final ProviderConfig config;

        @JsonCreator
        Entry(@JsonProperty("name") String name,
                @JsonProperty("api_styles") List<String> apiStyles,
                @JsonProperty("base_url") String baseUrl,
                @JsonProperty("key_env") String keyEnv,
                @JsonProperty("auth") String auth,
                @JsonProperty("key_required") Boolean keyRequired,
                @JsonProperty("models") List<String> models,
                @JsonProperty("default_model") String defaultModel,
                @JsonProperty("health_path") String healthPath,
                @JsonProperty("gateway") GatewayEntry gateway,
                @JsonProperty("prices") Map<String, PriceEntry> prices,
                @JsonProperty("cli_login") Boolean cliLogin) {
            if (name == null) {
                throw new IllegalArgumentException("a provider needs a \"name\"");
            }
            if (Boolean.TRUE.equals(cliLogin)) {
                if (auth != null || keyRequired != null || healthPath != null || gateway != null) {
                    throw new IllegalArgumentException("provider '" + name + "' has \"cli_login\": true, so it takes "
                            + "no \"auth\", \"key_required\", \"health_path\" or \"gateway\"; drop them");
                }
                this.config = cliLogin(name, apiStyles, baseUrl, keyEnv, models, defaultModel, prices);
                return;
            }
            if (apiStyles == null || apiStyles.isEmpty()) {
                throw new IllegalArgumentException("provider '" + name + "' needs \"api_styles\", some of "
                        + names(ApiStyle.values()));
            }
            if (baseUrl == null) {
                throw new IllegalArgumentException("provider '" + name + "' needs a \"base_url\"");
            }
            ProviderConfig.Builder b = ProviderConfig.builder(name)
                    .apiStyles(apiStyles.stream().map(s -> parse(ApiStyle.class, "api_styles", name, s)).toList())
                    .baseUrl(baseUrl)
                    .models(models == null ? List.of() : models)
                    .defaultModel(defaultModel)
                    .healthPath(healthPath);
            if (keyEnv != null) {
                b.key(keyEnv, auth == null ? AuthScheme.API_KEY : parse(AuthScheme.class, "auth", name, auth));
                if (Boolean.FALSE.equals(keyRequired)) {
                    b.keyOptional();
                }
            } else if (auth != null || keyRequired != null) {
                throw new IllegalArgumentException("provider '" + name + "' sets \"auth\" or \"key_required\" but"
                        + " no \"key_env\"; name the environment variable that holds its key");
            }
            if (gateway != null) {
                b.gateway(gateway.toGateway(name));
            }
            if (prices != null) {
                prices.forEach((model, price) -> b.price(model, price.toPrice(name, model)));
            }
            this.config = b.build();
        }

        private static <E extends Enum<E>> E parse(Class<E> type, String field, String provider, String value) {
            for (E e : type.getEnumConstants()) {
                if (e.name().equalsIgnoreCase(value)) {
                    return e;
                }
            }
            // shown only when plainly a word: a key pasted as the value must not reach the message
            throw new IllegalArgumentException(field + " value " + ConfigValues.shown(value) + " of provider '"
                    + provider + "' is unknown; use one of " + names(type.getEnumConstants()));
        }

        private static String names(Enum<?>[] values) {
            return Arrays.stream(values).map(v -> v.name().toLowerCase(Locale.ROOT)).collect(Collectors.joining(", "));
        }
    }

    /** One model's price in {@code prices}: USD per million tokens, as numbers. */
    static final class PriceEntry {
        final BigDecimal input;
        final BigDecimal output;
        final BigDecimal cacheRead;
        final BigDecimal cacheWrite;

        @JsonCreator
        PriceEntry(@JsonProperty("input") BigDecimal input, @JsonProperty("output") BigDecimal output,
                @JsonProperty("cache_read") BigDecimal cacheRead,
                @JsonProperty("cache_write") BigDecimal cacheWrite) {
            this.input = input;
            this.output = output;
            this.cacheRead = cacheRead;
            this.cacheWrite = cacheWrite;
        }

        ModelPrice toPrice(String provider, String model) {
            if (input == null || output == null) {
                throw new IllegalArgumentException("the price of model '" + model + "' of provider '" + provider
                        + "' needs \"input\" and \"output\" (USD per million tokens)");
            }
            return new ModelPrice(input, output, cacheRead, cacheWrite);
        }
    }

    /** A provider that is the CLI's own login: only models, a default model and prices. */
    private static ProviderConfig cliLogin(String name, List<String> apiStyles, String baseUrl, String keyEnv,
            List<String> models, String defaultModel, Map<String, PriceEntry> prices) {
        if (apiStyles != null || baseUrl != null || keyEnv != null) {
            throw new IllegalArgumentException("provider '" + name + "' has \"cli_login\": true, so it takes no "
                    + "\"api_styles\", \"base_url\" or \"key_env\" (the CLI reaches its model with its own login); "
                    + "drop them, or drop cli_login");
        }
        ProviderConfig.Builder b = ProviderConfig.builder(name).cliLogin().models(models == null ? List.of() : models)
                .defaultModel(defaultModel);
        if (prices != null) {
            prices.forEach((model, price) -> b.price(model, price.toPrice(name, model)));
        }
        return b.build();
    }

    /** The {@code gateway} object of a provider. */
    static final class GatewayEntry {
        final String type;
        final String adminKeyEnv;

        @JsonCreator
        GatewayEntry(@JsonProperty("type") String type, @JsonProperty("admin_key_env") String adminKeyEnv) {
            this.type = type;
            this.adminKeyEnv = adminKeyEnv;
        }

        ProviderConfig.Gateway toGateway(String provider) {
            ProviderConfig.Gateway.Type t = Arrays.stream(ProviderConfig.Gateway.Type.values())
                    .filter(v -> v.wireName().equalsIgnoreCase(String.valueOf(type)))
                    .findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("gateway type " + ConfigValues.shown(type)
                            + " of provider '" + provider + "' is unknown; the only one known is litellm"));
            if (adminKeyEnv == null) {
                throw new IllegalArgumentException("gateway of provider '" + provider + "' needs \"admin_key_env\","
                        + " the NAME of the environment variable holding the admin key");
            }
            ProviderConfigChecks.checkEnvName(provider, "gateway.admin_key_env", adminKeyEnv);
            return new ProviderConfig.Gateway(t, adminKeyEnv);
        }
    }
}
