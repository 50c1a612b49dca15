package dev.harness4j.opencode;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessException;
import dev.harness4j.api.McpServer;
import dev.harness4j.api.ResolvedProvider;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Builds the per-run {@code OPENCODE_CONFIG} file: one provider pointing at the run's endpoint,
 * the run's model, no autoupdate, no sharing, edits and shell allowed, the run's MCP servers.
 * Pure: returns text.
 *
 * <p>The key never appears in the file: the file says {@code {env:HARNESS4J_OPENCODE_API_KEY}},
 * which opencode substitutes from its environment when it loads the config, and the value
 * travels as a secret environment variable.
 */
final class OpencodeConfig {
    /** The provider id the config declares; the model is asked for as {@code harness4j/<model>}. */
    static final String PROVIDER_ID = "harness4j";

    /** The variable that carries the key; the config refers to it, the value is never written. */
    static final String KEY_ENV = "HARNESS4J_OPENCODE_API_KEY";

    /** opencode's bundled OpenAI-compatible provider package (nothing is downloaded). */
    static final String NPM_OPENAI_COMPATIBLE = "@ai-sdk/openai-compatible";

    /** opencode's bundled Anthropic provider package (nothing is downloaded). */
    static final String NPM_ANTHROPIC = "@ai-sdk/anthropic";

    /**
     * The key the Anthropic SDK is given when the endpoint needs none: it refuses to start
     * without one, and the endpoint ignores it.
     */
    static final String NO_KEY_PLACEHOLDER = "harness4j-no-key";

    /** How long opencode waits for an MCP server to connect and list its tools, in milliseconds: {@value}. */
    static final int MCP_TIMEOUT_MS = 30_000;

    private static final ObjectMapper JSON = new ObjectMapper();

    private OpencodeConfig() {}

    /** Which bundled provider package serves the endpoint: OpenAI-compatible first, else Anthropic. */
    static String npmPackage(ResolvedProvider provider) {
        unsupported(provider).ifPresent(why -> {
            throw new HarnessException(why);
        });
        return provider.serves(ApiStyle.OPENAI) ? NPM_OPENAI_COMPATIBLE : NPM_ANTHROPIC;
    }

    /** Why opencode cannot run on this provider (the harness's {@code unsupported}), or empty. */
    static Optional<String> unsupported(ResolvedProvider provider) {
        if (provider.usesCliLogin()) {
            return Optional.of("opencode cannot use provider '" + provider.name() + "', the CLI's own login: "
                    + "its runs use private XDG dirs, so the user's opencode auth.json is never seen; "
                    + "configure the provider with a base_url (and key_env)");
        }
        if (provider.serves(ApiStyle.OPENAI) || provider.serves(ApiStyle.ANTHROPIC)) {
            return Optional.empty();
        }
        return Optional.of("opencode cannot talk to provider '" + provider.name() + "': it serves "
                + provider.apiStyles() + ", but the opencode adapter speaks OpenAI Chat Completions (through "
                + NPM_OPENAI_COMPATIBLE + ") or Anthropic Messages (through " + NPM_ANTHROPIC + "); "
                + "declare the endpoint's OpenAI-compatible API (most Ollama-style servers offer one at /v1) "
                + "or run this provider with another harness");
    }

    /**
     * The config file's text.
     *
     * @param systemPromptFile the absolute path of a file holding text to add to the system
     *     prompt, or {@code null}
     */
    static String render(HarnessContext context, Path systemPromptFile) {
        ResolvedProvider provider = context.provider();
        String npm = npmPackage(provider);

        ObjectNode root = JSON.createObjectNode();
        root.put("$schema", "https://opencode.ai/config.json");
        root.put("autoupdate", false);
        root.put("share", "disabled");
        root.put("model", PROVIDER_ID + "/" + context.model());
        root.put("small_model", PROVIDER_ID + "/" + context.model());
        root.putArray("enabled_providers").add(PROVIDER_ID);
        ObjectNode permission = root.putObject("permission");
        permission.put("edit", "allow");
        permission.put("bash", "allow");
        if (systemPromptFile != null) {
            root.putArray("instructions").add(systemPromptFile.toString());
        }
        if (context.limits().maxTurns() != null) {
            root.putObject("agent").putObject("build").put("steps", context.limits().maxTurns());
        }

        ObjectNode p = root.putObject("provider").putObject(PROVIDER_ID);
        p.put("npm", npm);
        p.put("name", "harness4j " + provider.name());
        ObjectNode options = p.putObject("options");
        options.put("baseURL", provider.v1Url());
        String keyRef = "{env:" + KEY_ENV + "}";
        if (NPM_ANTHROPIC.equals(npm)) {
            if (provider.secret() == null) {
                options.put("apiKey", NO_KEY_PLACEHOLDER);
            } else if (provider.auth() == AuthScheme.BEARER) {
                options.put("authToken", keyRef);
            } else {
                options.put("apiKey", keyRef);
            }
        } else if (provider.secret() != null) {
            options.put("apiKey", keyRef); // sent as Authorization: Bearer, which API_KEY endpoints accept too
        }
        ObjectNode model = p.putObject("models").putObject(context.model());
        model.put("name", context.model());
        Map<String, BigDecimal> prices = prices(context);
        if (!prices.isEmpty()) {
            ObjectNode cost = model.putObject("cost");
            prices.forEach(cost::put);
        }
        mcp(root, context);
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new HarnessException("opencode: could not render the per-run config for run " + context.runId(), e);
        }
    }

    /**
     * The run's MCP servers as {@code mcp}: {@code {"type": "local", "command": [command, args...],
     * "environment"}} for stdio, {@code {"type": "remote", "url"}} for HTTP, each enabled, with the
     * connection timeout raised from opencode's 5 s for servers that start a VM. Nothing without
     * servers.
     */
    private static void mcp(ObjectNode root, HarnessContext context) {
        if (context.mcpServers().isEmpty()) {
            return;
        }
        ObjectNode servers = root.putObject("mcp");
        for (McpServer m : context.mcpServers()) {
            ObjectNode s = servers.putObject(m.name());
            if (m instanceof McpServer.Stdio stdio) {
                s.put("type", "local");
                var command = s.putArray("command").add(stdio.command());
                stdio.args().forEach(command::add);
                if (!stdio.env().isEmpty()) {
                    stdio.env().forEach(s.putObject("environment")::put);
                }
            } else if (m instanceof McpServer.Http http) {
                s.put("type", "remote").put("url", http.url().toString());
            }
            s.put("enabled", true).put("timeout", MCP_TIMEOUT_MS);
        }
    }

    /**
     * The prices the run spec's options set, keyed by opencode's {@code cost} field names, in USD
     * per million tokens; empty when the run set none (then opencode reports cost 0, which the
     * adapter does not take as a measurement).
     */
    static Map<String, BigDecimal> prices(HarnessContext context) {
        Map<String, BigDecimal> out = new LinkedHashMap<>();
        price(context, OpencodeHarness.OPTION_PRICE_INPUT).ifPresent(v -> out.put("input", v));
        price(context, OpencodeHarness.OPTION_PRICE_OUTPUT).ifPresent(v -> out.put("output", v));
        price(context, OpencodeHarness.OPTION_PRICE_CACHE_READ).ifPresent(v -> out.put("cache_read", v));
        price(context, OpencodeHarness.OPTION_PRICE_CACHE_WRITE).ifPresent(v -> out.put("cache_write", v));
        if (!out.isEmpty() && (!out.containsKey("input") || !out.containsKey("output"))) {
            throw new HarnessException("opencode: a priced model needs both " + OpencodeHarness.OPTION_PRICE_INPUT
                    + " and " + OpencodeHarness.OPTION_PRICE_OUTPUT + " (USD per million tokens), got " + out.keySet()
                    + "; set both options or none");
        }
        return out;
    }

    private static Optional<BigDecimal> price(HarnessContext context, String key) {
        Optional<String> raw = context.option(key);
        if (raw.isEmpty()) {
            return Optional.empty();
        }
        try {
            BigDecimal v = new BigDecimal(raw.get().trim());
            if (v.signum() < 0) {
                throw new NumberFormatException("negative");
            }
            return Optional.of(v);
        } catch (NumberFormatException e) {
            throw new HarnessException("opencode: option " + key + " must be a price in USD per million tokens "
                    + "(a number >= 0, e.g. \"3.00\"), was '" + raw.get() + "'; fix the run spec's options", e);
        }
    }
}
