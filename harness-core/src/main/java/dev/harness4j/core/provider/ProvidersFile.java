package dev.harness4j.core.provider;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.core.internal.util.Json;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Reads and writes {@code providers.json}, the provider endpoints of a state dir ({@code
 * <stateDir>/config/providers.json}). Stateless; safe to call from any thread.
 *
 * <pre>{@code
 * {
 *   "schema_version": 1,
 *   "providers": [
 *     { "name": "anthropic", "api_styles": ["anthropic"], "base_url": "https://api.anthropic.com",
 *       "key_env": "ANTHROPIC_API_KEY", "auth": "api_key",
 *       "models": ["claude-sonnet-4-5"], "default_model": "claude-sonnet-4-5" }
 *   ]
 * }
 * }</pre>
 *
 * <p>Fields of a provider: {@code name}, {@code api_styles} ({@code anthropic}, {@code openai},
 * {@code ollama}), {@code base_url}, {@code key_env}, {@code auth} ({@code api_key} or {@code
 * bearer}, default {@code api_key}), {@code key_required} (default {@code true}), {@code models},
 * {@code default_model}, {@code health_path}, {@code prices} ({@code {"<model>": {"input": 3,
 * "output": 15, "cache_read": 0.3, "cache_write": 3.75}}}, USD per million tokens), {@code gateway} ({@code {"type": "litellm",
 * "admin_key_env": "LITELLM_MASTER_KEY"}}), {@code cli_login} ({@code true} for a CLI that reaches
 * its model with its own login: then only {@code models}, {@code default_model} and {@code
 * prices} may be given, e.g. {@code {"name": "claude-login", "cli_login": true, "models":
 * ["sonnet"], "default_model": "sonnet"}}). Unknown fields are rejected by name, malformed JSON
 * is reported with its line and column. Writes are atomic (temp file, then rename); a symlinked
 * file is written through to its target, and an existing file keeps its permissions.
 */
public final class ProvidersFile {
    /** The file's path below a state dir: {@value}. */
    public static final String RELATIVE_PATH = "config/providers.json";

    /** The format version written and accepted: {@value}. */
    public static final int SCHEMA_VERSION = 1;

    private static final List<String> TOP_FIELDS = List.of("schema_version", "providers");
    private static final List<String> ENTRY_FIELDS = List.of("name", "api_styles", "base_url", "key_env", "auth",
            "key_required", "models", "default_model", "health_path", "gateway", "prices", "cli_login");
    private static final List<String> PRICE_FIELDS = List.of("input", "output", "cache_read", "cache_write");
    private static final List<String> GATEWAY_FIELDS = List.of("type", "admin_key_env");

    private ProvidersFile() {}

    /** {@code <stateDir>/config/providers.json}. */
    public static Path in(Path stateDir) {
        return stateDir.resolve(RELATIVE_PATH);
    }

    /**
     * Reads the providers of a file.
     *
     * @throws ProviderConfigException naming the file (and line, column, field) when it cannot be
     *     read, is not JSON, has unknown fields, bad values or two providers with one name
     */
    public static List<ProviderConfig> read(Path file) {
        Objects.requireNonNull(file, "file");
        ObjectMapper mapper = reader();
        FileEntry parsed;
        try {
            checkSyntaxAndFields(file, mapper);
            try (InputStream in = Files.newInputStream(file)) {
                parsed = mapper.readValue(in, FileEntry.class);
            }
        } catch (JsonProcessingException e) {
            throw describe(file, e);
        } catch (IOException e) {
            throw new ProviderConfigException(file, "could not read provider config " + file + ": " + e, e);
        }
        if (parsed == null) {
            throw new ProviderConfigException(file, "provider config " + file + " holds JSON null; expected"
                    + " {\"schema_version\": 1, \"providers\": [...]}");
        }
        List<ProviderConfig> configs = new ArrayList<>();
        Set<String> names = new LinkedHashSet<>();
        for (Entry e : parsed.providers) {
            if (!names.add(e.config.name())) {
                throw new ProviderConfigException(file, "provider config " + file + " defines provider '"
                        + e.config.name() + "' twice; give each provider its own name");
            }
            configs.add(e.config);
        }
        return List.copyOf(configs);
    }

    /**
     * Writes the providers to a file atomically (temp file beside the real file, then rename; a
     * symlink is followed, the old file's permissions kept). This replaces the whole file: to
     * change one provider's catalogue, {@link Providers#refresh(String)} edits only its {@code
     * models}.
     */
    public static void write(Path file, List<ProviderConfig> providers) {
        Objects.requireNonNull(file, "file");
        ObjectMapper mapper = Json.mapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode root = mapper.createObjectNode();
        root.put("schema_version", SCHEMA_VERSION);
        ArrayNode list = root.putArray("providers");
        for (ProviderConfig p : providers) {
            list.add(toJson(mapper, p));
        }
        byte[] bytes;
        try {
            bytes = (mapper.writeValueAsString(root) + "\n").getBytes(StandardCharsets.UTF_8);
        } catch (JsonProcessingException e) {
            throw new ProviderConfigException(file, "could not write provider config " + file + ": " + e, e);
        }
        ProvidersFileEdit.writeAtomically(ProvidersFileEdit.realTarget(file), bytes, null);
    }

    private static ObjectNode toJson(ObjectMapper mapper, ProviderConfig p) {
        ObjectNode n = mapper.createObjectNode();
        n.put("name", p.name());
        if (p.cliLogin()) {
            n.put("cli_login", true);
        } else {
            ArrayNode styles = n.putArray("api_styles");
            p.apiStyles().stream().sorted().forEach(s -> styles.add(s.name().toLowerCase(Locale.ROOT)));
            n.put("base_url", p.baseUrl().toString());
        }
        if (p.keyEnv() != null) {
            n.put("key_env", p.keyEnv());
            n.put("auth", p.auth().name().toLowerCase(Locale.ROOT));
            if (!p.keyRequired()) {
                n.put("key_required", false);
            }
        }
        ArrayNode models = n.putArray("models");
        p.models().forEach(models::add);
        if (p.defaultModel() != null) {
            n.put("default_model", p.defaultModel());
        }
        if (p.healthPath() != null) {
            n.put("health_path", p.healthPath());
        }
        if (p.gateway() != null) {
            ObjectNode g = n.putObject("gateway");
            g.put("type", p.gateway().type().wireName());
            g.put("admin_key_env", p.gateway().adminKeyEnv());
        }
        if (!p.prices().isEmpty()) {
            ObjectNode prices = n.putObject("prices");
            p.prices().forEach((model, price) -> {
                ObjectNode m = prices.putObject(model);
                m.put("input", price.input());
                m.put("output", price.output());
                if (price.cacheRead() != null) {
                    m.put("cache_read", price.cacheRead());
                }
                if (price.cacheWrite() != null) {
                    m.put("cache_write", price.cacheWrite());
                }
            });
        }
        return n;
    }

    private static ObjectMapper reader() {
        ObjectMapper m = Json.mapper();
        m.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
        m.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        m.enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);
        return m;
    }

    private static ProviderConfigException describe(Path file, JsonProcessingException e) {
        String where = where(e.getLocation());
        if (!(e instanceof JsonMappingException m)) {
            // a bare token may be a key pasted without quotes: say where it is, not what it is, and do
            // not chain Jackson's exception, whose message quotes the token
            String why = String.valueOf(e.getOriginalMessage()).replaceAll("token '[^']*'", "token (not shown)");
            return new ProviderConfigException(file, "provider config " + file + " is not valid JSON at " + where
                    + ": " + why);
        }
        String pointer = pointer(m);
        Throwable cause = m.getCause();
        if (cause instanceof IllegalArgumentException bad) {
            return new ProviderConfigException(file, "provider config " + file + ", " + pointer + " (" + where
                    + "): " + bad.getMessage(), e);
        }
        if (m instanceof MismatchedInputException mi && mi.getMessage().startsWith("No content to map")) {
            return new ProviderConfigException(file, "provider config " + file + " is empty; expected"
                    + " {\"schema_version\": 1, \"providers\": [...]}", e);
        }
        String expected = m instanceof MismatchedInputException mi && mi.getTargetType() != null
                ? expectedKind(mi.getTargetType()) : "another value";
        return new ProviderConfigException(file, "provider config " + file + ", " + pointer + " (" + where
                + "): wrong type, expected " + expected, e);
    }

    private static String expectedKind(Class<?> type) {
        if (List.class.isAssignableFrom(type)) {
            return "an array";
        }
        if (type == String.class) {
            return "a string";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "true or false";
        }
        if (type == Integer.class || type == int.class) {
            return "a number";
        }
        return "an object";
    }

    private static String where(JsonLocation loc) {
        return loc == null ? "an unknown position" : "line " + loc.getLineNr() + ", column " + loc.getColumnNr();
    }

    private static String pointer(JsonMappingException m) {
        StringBuilder sb = new StringBuilder();
        for (JsonMappingException.Reference r : m.getPath()) {
            sb.append('/').append(r.getFieldName() != null ? r.getFieldName() : String.valueOf(r.getIndex()));
        }
        return sb.length() == 0 ? "at the top level" : "field " + sb;
    }

    /**
     * Walks the file once with a streaming parser: reports malformed JSON with its position, and
     * collects every unknown field (name, JSON pointer, line, column) rather than stopping at the
     * first, never quoting a value (a key pasted into the file must not reach a message).
     */
    private static void checkSyntaxAndFields(Path file, ObjectMapper mapper) throws IOException {
        List<String> found = new ArrayList<>();
        Set<String> knownWhere = new LinkedHashSet<>();
        try (JsonParser p = mapper.createParser(file.toFile())) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return; // empty or not an object: binding reports it
            }
            walk(p, TOP_FIELDS, "", found, knownWhere);
            while (p.nextToken() != null) {
                p.skipChildren(); // trailing content: let the parser reject what is malformed
            }
        }
        if (!found.isEmpty()) {
            throw new ProviderConfigException(file, "provider config " + file + " has unknown field"
                    + (found.size() == 1 ? " " : "s ") + String.join(", ", found) + "; known fields: "
                    + String.join("; ", knownWhere) + ". Remove or rename them (keys never go in this file:"
                    + " key_env names the environment variable that holds one).");
        }
    }

    private static void walk(JsonParser p, List<String> known, String pointer, List<String> found,
            Set<String> knownWhere) throws IOException {
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonLocation at = p.currentTokenLocation();
            JsonToken value = p.nextToken();
            if (!known.contains(name)) {
                found.add("'" + name + "' in " + (pointer.isEmpty() ? "the top level" : pointer) + " (" + where(at) + ")");
                knownWhere.add((pointer.isEmpty() ? "top level" : pointer.replaceAll("/\\d+", "/*")) + ": "
                        + String.join(", ", known));
                p.skipChildren();
            } else if (pointer.isEmpty() && name.equals("providers") && value == JsonToken.START_ARRAY) {
                int i = 0;
                for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY && t != null; t = p.nextToken(), i++) {
                    if (t == JsonToken.START_OBJECT) {
                        walk(p, ENTRY_FIELDS, "/providers/" + i, found, knownWhere);
                    } else {
                        p.skipChildren();
                    }
                }
            } else if (!pointer.isEmpty() && !pointer.contains("/prices") && name.equals("prices")
                    && value == JsonToken.START_OBJECT) {
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String model = p.currentName();
                    if (p.nextToken() == JsonToken.START_OBJECT) {
                        walk(p, PRICE_FIELDS, pointer + "/prices/" + model, found, knownWhere);
                    } else {
                        p.skipChildren();
                    }
                }
            } else if (!pointer.isEmpty() && name.equals("gateway") && value == JsonToken.START_OBJECT) {
                walk(p, GATEWAY_FIELDS, pointer + "/gateway", found, knownWhere);
            } else {
                p.skipChildren();
            }
        }
    }

    /** The file's top level. */
    static final class FileEntry {
        final List<Entry> providers;

        @JsonCreator
        FileEntry(@JsonProperty("schema_version") Integer schemaVersion,
                @JsonProperty("providers") List<Entry> providers) {
            if (schemaVersion != null && schemaVersion != SCHEMA_VERSION) {
                throw new IllegalArgumentException("schema_version " + schemaVersion + " is not supported; this"
                        + " version of harness4j reads " + SCHEMA_VERSION);
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
        final java.math.BigDecimal input;
        final java.math.BigDecimal output;
        final java.math.BigDecimal cacheRead;
        final java.math.BigDecimal cacheWrite;

        @JsonCreator
        PriceEntry(@JsonProperty("input") java.math.BigDecimal input, @JsonProperty("output") java.math.BigDecimal output,
                @JsonProperty("cache_read") java.math.BigDecimal cacheRead,
                @JsonProperty("cache_write") java.math.BigDecimal cacheWrite) {
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
            ProviderConfig.checkEnvName(provider, "gateway.admin_key_env", adminKeyEnv);
            return new ProviderConfig.Gateway(t, adminKeyEnv);
        }
    }
}
