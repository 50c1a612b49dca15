package dev.harness4j.codex;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessException;
import dev.harness4j.api.McpServer;
import dev.harness4j.api.ResolvedProvider;
import java.util.Optional;

/**
 * Renders the per-run {@code $CODEX_HOME/config.toml}: one model provider pointing at the run's
 * endpoint over the Responses API, the run's model, no approvals, no sandbox of its own, no
 * update check, no analytics, no history, and the run's MCP servers ({@code [mcp_servers.<name>]}).
 * Pure: returns text.
 *
 * <p>The key never appears in the file: the provider names {@value #KEY_ENV} as its {@code
 * env_key}, and the value travels as a secret environment variable.
 */
final class CodexConfig {
    /** The provider id the config declares and selects. */
    static final String PROVIDER_ID = "harness4j";

    /** The variable that carries the key; the config names it, the value is never written. */
    static final String KEY_ENV = "HARNESS4J_CODEX_API_KEY";

    /** How long Codex waits for an MCP server to start, in seconds (its own default is 10). */
    static final int MCP_STARTUP_TIMEOUT_SEC = 30;

    private CodexConfig() {}

    /** Refuses an endpoint that does not serve the OpenAI API, the only one Codex speaks. */
    static void requireOpenAi(ResolvedProvider provider) {
        unsupported(provider).ifPresent(why -> {
            throw new HarnessException(why);
        });
    }

    /** Why the CLI cannot run on this provider (the harness's {@code unsupported}), or empty. */
    static Optional<String> unsupported(ResolvedProvider provider) {
        if (provider.usesCliLogin()) {
            return Optional.of("codex cannot use provider '" + provider.name() + "', the CLI's own login: "
                    + "its runs use a private CODEX_HOME, so the user's codex login is never seen; "
                    + "configure the provider with a base_url (and key_env)");
        }
        if (!provider.serves(ApiStyle.OPENAI)) {
            return Optional.of("codex cannot talk to provider '" + provider.name() + "': it serves "
                    + provider.apiStyles() + ", but Codex speaks only OpenAI's Responses API (POST /v1/responses); "
                    + "declare the endpoint's OpenAI API if it serves /v1/responses, or run this provider with "
                    + "another harness");
        }
        return Optional.empty();
    }

    /** The config file's text. */
    static String render(HarnessContext context) {
        ResolvedProvider provider = context.provider();
        requireOpenAi(provider);
        StringBuilder t = new StringBuilder();
        t.append("# written by harness4j for run ").append(context.runId()).append('\n');
        kv(t, "model", context.model());
        kv(t, "model_provider", PROVIDER_ID);
        kv(t, "approval_policy", "never");
        kv(t, "sandbox_mode", "danger-full-access");
        t.append("check_for_update_on_startup = false\n");
        if (context.systemPrompt() != null && !context.systemPrompt().isBlank()) {
            kv(t, "developer_instructions", context.systemPrompt());
        }
        t.append("\n[analytics]\nenabled = false\n");
        t.append("\n[feedback]\nenabled = false\n");
        t.append("\n[history]\n");
        kv(t, "persistence", "none");
        t.append("\n[model_providers.").append(PROVIDER_ID).append("]\n");
        kv(t, "name", "harness4j " + provider.name());
        kv(t, "base_url", provider.v1Url());
        kv(t, "wire_api", "responses");
        if (provider.secret() != null) {
            kv(t, "env_key", KEY_ENV); // sent as Authorization: Bearer
        }
        for (McpServer m : context.mcpServers()) {
            mcpServer(t, m);
        }
        return t.toString();
    }

    /**
     * One {@code [mcp_servers.<name>]} table: {@code command}, {@code args} and an {@code env}
     * table for a stdio server, {@code url} for an HTTP one (names are {@link McpServer#NAME}s, safe
     * as bare TOML keys). The startup timeout is raised from Codex's 10 s for servers that start a VM.
     */
    private static void mcpServer(StringBuilder t, McpServer m) {
        t.append("\n[mcp_servers.").append(m.name()).append("]\n");
        if (m instanceof McpServer.Stdio s) {
            kv(t, "command", s.command());
            t.append("args = [").append(String.join(", ", s.args().stream().map(CodexConfig::quote).toList()))
                    .append("]\n");
            t.append("startup_timeout_sec = ").append(MCP_STARTUP_TIMEOUT_SEC).append('\n');
            if (!s.env().isEmpty()) {
                t.append("\n[mcp_servers.").append(m.name()).append(".env]\n");
                s.env().forEach((k, v) -> kv(t, k, v));
            }
        } else if (m instanceof McpServer.Http h) {
            kv(t, "url", h.url().toString());
            t.append("startup_timeout_sec = ").append(MCP_STARTUP_TIMEOUT_SEC).append('\n');
        }
    }

    private static void kv(StringBuilder t, String key, String value) {
        t.append(key).append(" = ").append(quote(value)).append('\n');
    }

    /** A TOML basic string: quotes, backslashes and control characters escaped. */
    static String quote(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        b.append(String.format("\\u%04X", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }
}
