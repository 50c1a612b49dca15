package dev.harness4j.qwen;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessException;
import dev.harness4j.api.McpServer;
import dev.harness4j.api.ResolvedProvider;
import java.util.Optional;

/**
 * Renders the per-run system settings ({@code QWEN_CODE_SYSTEM_SETTINGS_PATH}, which win over the
 * workspace's {@code .qwen/settings.json}): the OpenAI-compatible auth and the run's
 * model, no usage statistics, no telemetry, no update check or nag, no chat recording, no
 * background memory extraction or consolidation, and the run's MCP servers. Pure: returns text. The key never appears in it:
 * it travels as the secret variable {@value #KEY_ENV}.
 */
final class QwenSettings {
    /** The variable Qwen Code's {@code openai} auth reads the key from. */
    static final String KEY_ENV = "OPENAI_API_KEY";

    /** How long a call of an MCP tool may take, in milliseconds: {@value}. */
    static final int MCP_TIMEOUT_MS = 600_000;

    private static final ObjectMapper JSON = new ObjectMapper();

    private QwenSettings() {}

    /** Refuses an endpoint that does not serve the OpenAI API (the only one this adapter configures). */
    static void requireOpenAi(ResolvedProvider provider) {
        unsupported(provider).ifPresent(why -> {
            throw new HarnessException(why);
        });
    }

    /** Why the CLI cannot run on this provider (the harness's {@code unsupported}), or empty. */
    static Optional<String> unsupported(ResolvedProvider provider) {
        if (provider.usesCliLogin()) {
            return Optional.of("qwen-code cannot use provider '" + provider.name() + "', the CLI's own login: "
                    + "its runs use a private QWEN_HOME, so the user's Qwen login is never seen; "
                    + "configure the provider with a base_url (and key_env)");
        }
        if (!provider.serves(ApiStyle.OPENAI)) {
            return Optional.of("qwen-code cannot talk to provider '" + provider.name() + "': it serves "
                    + provider.apiStyles() + ", but this adapter runs Qwen Code on the OpenAI chat completions API "
                    + "(POST /v1/chat/completions); declare the endpoint's OpenAI API if it serves it, or run this "
                    + "provider with another harness");
        }
        return Optional.empty();
    }

    /**
     * The run's MCP servers as {@code mcpServers} (Qwen Code keeps Gemini CLI's shape: {@code
     * command}, {@code args}, {@code env}, or {@code httpUrl}; {@code trust}ed, so no call waits for
     * a confirmation), and {@code mcp.allowed} naming exactly them, so that no server the
     * workspace's settings define starts beside them. Nothing without servers.
     */
    private static void mcpServers(ObjectNode root, HarnessContext context) {
        if (context.mcpServers().isEmpty()) {
            return;
        }
        ObjectNode servers = root.putObject("mcpServers");
        var allowed = root.putObject("mcp").putArray("allowed");
        for (McpServer m : context.mcpServers()) {
            allowed.add(m.name());
            // alwaysLoadTools: its tools are declared to the model up front, as any CLI's are, instead of
            // deferred behind Qwen Code's tool_search + tool_call bridge (0.24's default for MCP tools)
            ObjectNode s = servers.putObject(m.name()).put("trust", true).put("timeout", MCP_TIMEOUT_MS)
                    .put("alwaysLoadTools", true);
            if (m instanceof McpServer.Http http) {
                s.put("httpUrl", http.url().toString());
            } else if (m instanceof McpServer.Stdio stdio) {
                s.put("command", stdio.command());
                stdio.args().forEach(s.putArray("args")::add);
                stdio.env().forEach(s.putObject("env")::put);
            }
        }
    }

    /** The settings file's text. */
    static String render(HarnessContext context) {
        requireOpenAi(context.provider());
        ObjectNode root = JSON.createObjectNode();
        ObjectNode general = root.putObject("general");
        general.put("enableAutoUpdate", false);
        general.put("disableAutoUpdate", true);
        general.put("disableUpdateNag", true);
        general.put("chatRecording", context.keepSession());
        root.putObject("privacy").put("usageStatisticsEnabled", false);
        root.putObject("telemetry").put("enabled", false);
        root.putObject("model").put("name", context.model());
        // the background memory extraction (a model call after the answer, writing memory files)
        // and its consolidation: not part of the task, and their tokens would be billed to it
        ObjectNode memory = root.putObject("memory");
        memory.put("enableManagedAutoMemory", false);
        memory.put("enableManagedAutoDream", false);
        ObjectNode security = root.putObject("security");
        security.putObject("auth").put("selectedType", "openai");
        security.putObject("folderTrust").put("enabled", false);
        mcpServers(root, context);
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n";
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("could not render Qwen Code settings", e);
        }
    }
}
