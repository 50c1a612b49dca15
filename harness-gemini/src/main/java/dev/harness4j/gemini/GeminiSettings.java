package dev.harness4j.gemini;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessException;
import dev.harness4j.api.McpServer;
import dev.harness4j.api.ResolvedProvider;
import java.util.Optional;

/**
 * Renders the per-run {@code $GEMINI_CLI_HOME/.gemini/settings.json}: the API-key auth type, the
 * run's model and turn limit, the retry budget, and everything that would phone home or wait for
 * a person turned off (usage statistics, telemetry, update checks and notifications, IDE
 * integration, folder trust prompts, checkpointing, the sandbox), and the run's MCP servers.
 * Pure: returns text.
 *
 * <p>The key never appears in the file: it travels as the secret variable {@code GEMINI_API_KEY},
 * and the endpoint as {@code GOOGLE_GEMINI_BASE_URL} ({@link GeminiInvocations}).
 */
final class GeminiSettings {
    /**
     * How many attempts Gemini CLI makes at one model request by default (it waits with backoff
     * between them, or as long as a rate limit's {@code RetryInfo} asks): 3, where the CLI's own
     * default is 10 (minutes of waiting on a rate-limited endpoint; the runner's queue retries a
     * rate-limited run itself). The option {@value #MAX_ATTEMPTS_OPTION} changes it (1 to 10).
     */
    static final int DEFAULT_MAX_ATTEMPTS = 3;

    /** The run option that sets the attempts per model request. */
    static final String MAX_ATTEMPTS_OPTION = "max_attempts";

    /** How long a call of an MCP tool may take, in milliseconds: {@value}. */
    static final int MCP_TIMEOUT_MS = 600_000;

    private static final ObjectMapper JSON = new ObjectMapper();

    private GeminiSettings() {}

    /** Refuses an endpoint that does not serve Google's Gemini API, the only one Gemini CLI speaks. */
    static void requireGemini(ResolvedProvider provider) {
        unsupported(provider).ifPresent(why -> {
            throw new HarnessException(why);
        });
    }

    /** Why the CLI cannot run on this provider (the harness's {@code unsupported}), or empty. */
    static Optional<String> unsupported(ResolvedProvider provider) {
        if (provider.usesCliLogin()) {
            return Optional.of("gemini cannot use provider '" + provider.name() + "', the CLI's own login: "
                    + "its runs use a private GEMINI_CLI_HOME, so the user's Google login is never seen; "
                    + "configure the provider with a base_url (and key_env)");
        }
        if (!provider.serves(ApiStyle.GEMINI)) {
            return Optional.of("gemini cannot talk to provider '" + provider.name() + "': it serves "
                    + provider.apiStyles() + ", but Gemini CLI speaks only Google's Gemini API (POST /v1beta/models/"
                    + "{model}:streamGenerateContent); add \"gemini\" to the provider's api_styles if the endpoint "
                    + "serves it, or run this provider with another harness");
        }
        return Optional.empty();
    }

    /** The attempts per model request: the option's value, else {@link #DEFAULT_MAX_ATTEMPTS}. */
    static int maxAttempts(HarnessContext context) {
        String v = context.option(MAX_ATTEMPTS_OPTION).orElse(null);
        if (v == null) {
            return DEFAULT_MAX_ATTEMPTS;
        }
        try {
            int n = Integer.parseInt(v.strip());
            if (n >= 1 && n <= 10) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new HarnessException("gemini option " + MAX_ATTEMPTS_OPTION + "=" + v + " is not a whole number from 1 "
                + "to 10 (Gemini CLI's limit); give e.g. --option " + MAX_ATTEMPTS_OPTION + "=3");
    }

    /**
     * The run's MCP servers as {@code mcpServers} ({@code command}, {@code args}, {@code env} for
     * stdio, {@code httpUrl} for HTTP; each {@code trust}ed, so no call waits for a confirmation),
     * and {@code mcp.allowed} naming exactly them, so that no server a task repo's settings define
     * is started beside them. Nothing without servers.
     */
    private static void mcpServers(ObjectNode root, HarnessContext context) {
        if (context.mcpServers().isEmpty()) {
            return;
        }
        ObjectNode servers = root.putObject("mcpServers");
        var allowed = root.putObject("mcp").putArray("allowed");
        for (McpServer m : context.mcpServers()) {
            ObjectNode s = servers.putObject(m.name());
            allowed.add(m.name());
            if (m instanceof McpServer.Stdio stdio) {
                s.put("command", stdio.command());
                stdio.args().forEach(s.putArray("args")::add);
                ObjectNode env = s.putObject("env");
                stdio.env().forEach(env::put);
            } else if (m instanceof McpServer.Http http) {
                s.put("httpUrl", http.url().toString());
            }
            s.put("timeout", MCP_TIMEOUT_MS).put("trust", true);
        }
    }

    /** The settings file's text. */
    static String render(HarnessContext context) {
        requireGemini(context.provider());
        ObjectNode root = JSON.createObjectNode();
        ObjectNode general = root.putObject("general");
        general.put("enableAutoUpdate", false);
        general.put("enableAutoUpdateNotification", false);
        general.put("enableNotifications", false);
        general.putObject("checkpointing").put("enabled", false);
        general.put("maxAttempts", maxAttempts(context));
        root.putObject("privacy").put("usageStatisticsEnabled", false);
        root.putObject("telemetry").put("enabled", false).put("logPrompts", false);
        root.putObject("ide").put("enabled", false);
        ObjectNode security = root.putObject("security");
        security.putObject("folderTrust").put("enabled", false);
        // "gemini-api-key": the key from GEMINI_API_KEY, the endpoint from GOOGLE_GEMINI_BASE_URL
        security.putObject("auth").put("selectedType", "gemini-api-key");
        root.putObject("tools").put("sandbox", false);
        ObjectNode model = root.putObject("model");
        model.put("name", context.model());
        if (context.limits().maxTurns() != null) {
            model.put("maxSessionTurns", context.limits().maxTurns());
        }
        // no .env file from the workspace or a directory above it (only the home dir's, and a
        // .gemini/.env on the way while the workspace is trusted, are still read by Gemini CLI)
        root.putObject("advanced").put("autoConfigureMemory", false).put("ignoreLocalEnv", true);
        mcpServers(root, context);
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("settings.json could not be rendered", e);
        }
    }
}
