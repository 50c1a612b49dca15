package dev.harness4j.core.provider;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.harness4j.core.internal.util.Json;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

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
        ProvidersFileEntries.FileEntry parsed;
        try {
            ProvidersFileCheck.checkSyntaxAndFields(file, mapper);
            try (InputStream in = Files.newInputStream(file)) {
                parsed = mapper.readValue(in, ProvidersFileEntries.FileEntry.class);
            }
        } catch (JsonProcessingException e) {
            throw ProvidersFileCheck.describe(file, e);
        } catch (IOException e) {
            throw new ProviderConfigException(file, "could not read provider config " + file + ": " + e, e);
        }
        if (parsed == null) {
            throw new ProviderConfigException(file, "provider config " + file + " holds JSON null; expected"
                    + " {\"schema_version\": 1, \"providers\": [...]}");
        }
        List<ProviderConfig> configs = new ArrayList<>();
        Set<String> names = new LinkedHashSet<>();
        for (ProvidersFileEntries.Entry e : parsed.providers) {
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

    /** A provider as the file writes it (also the fields of an entry {@link ProvidersFileEdit#add} puts in). */
    static ObjectNode toJson(ObjectMapper mapper, ProviderConfig p) {
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
}
