package dev.harness4j.copilot;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessException;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.McpServer;
import dev.harness4j.api.ResolvedProvider;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Translates a run context into the {@code copilot} invocation: argv, the per-run {@code
 * COPILOT_HOME} and {@code HOME}, the BYOK environment and the MCP config file. Pure: no I/O.
 * Package-private; {@link CopilotHarness} is the public face.
 */
final class CopilotInvocations {
    /** The per-run {@code COPILOT_HOME}, relative to the scratch dir: config, session state, logs. */
    static final String HOME_DIR = "copilot/home";

    /**
     * The process's {@code HOME}, relative to the scratch dir: the npm loader extracts its assets to
     * {@code $HOME/.cache/copilot}, which must not land in the user's home.
     */
    static final String USER_HOME_DIR = "copilot/user-home";

    /** The run's {@code TMPDIR}, relative to the scratch dir. */
    static final String TMP_DIR = "copilot/tmp";

    /** The run's MCP servers ({@code --additional-mcp-config @file}), relative to the scratch dir. */
    static final String MCP_FILE = "copilot/mcp-config.json";

    /** The variable the key travels in (never argv, never a file). */
    static final String KEY_ENV = "COPILOT_PROVIDER_API_KEY";

    /** Inherited variables removed before the run's own are set: a stray provider, model or home. */
    static final String[] REMOVED_ENVIRONMENT = {"COPILOT_*", "GH_TOKEN", "GITHUB_TOKEN", "GITHUB_COPILOT_*",
        "TMPDIR", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME"};

    private static final ObjectMapper JSON = new ObjectMapper();

    private CopilotInvocations() {}

    /** Why the CLI cannot run on this provider, or empty. */
    static Optional<String> unsupported(ResolvedProvider provider) {
        if (provider.usesCliLogin()) {
            return Optional.of("copilot cannot use provider '" + provider.name() + "', the CLI's own login: "
                    + "its runs use a private COPILOT_HOME and COPILOT_OFFLINE=true (BYOK only), so a GitHub login is "
                    + "never seen; configure the provider with a base_url (and key_env)");
        }
        if (!provider.serves(ApiStyle.OPENAI) && !provider.serves(ApiStyle.ANTHROPIC)) {
            return Optional.of("copilot cannot talk to provider '" + provider.name() + "': it serves "
                    + provider.apiStyles() + ", but Copilot CLI's BYOK mode speaks the OpenAI chat completions API "
                    + "(POST /v1/chat/completions) or Anthropic Messages (POST /v1/messages); declare one of those if "
                    + "the endpoint serves it, or run this provider with another harness");
        }
        return Optional.empty();
    }

    static Invocation of(HarnessContext context) {
        ResolvedProvider provider = context.provider();
        unsupported(provider).ifPresent(why -> {
            throw new HarnessException(why);
        });
        Path workspace = context.workspace().toAbsolutePath().normalize();
        Path scratch = context.scratchDir().toAbsolutePath().normalize();
        String prompt = context.systemPrompt() != null && !context.systemPrompt().isBlank()
                ? context.systemPrompt().strip() + "\n\n" + context.prompt() : context.prompt();
        Invocation.Builder b = Invocation.builder(context.executable(),
                "-p", prompt,
                "--yolo",
                "--no-ask-user",
                "--output-format", "json",
                "--no-auto-update",
                "--disable-builtin-mcps",
                "--model", context.model());
        context.followUpSession().ifPresent(id -> b.args("--resume=" + id)); // kept in the per-run COPILOT_HOME
        if (!context.mcpServers().isEmpty()) {
            b.file(MCP_FILE, mcpConfig(context));
            b.args("--additional-mcp-config", "@" + scratch.resolve(MCP_FILE));
        }
        b.workingDir(workspace);
        b.file(HOME_DIR + "/.keep", "");
        b.file(USER_HOME_DIR + "/.keep", "");
        b.file(TMP_DIR + "/.keep", "");
        for (String name : REMOVED_ENVIRONMENT) {
            b.removeEnv(name);
        }
        String userHome = context.environment().get("HOME");
        if (userHome != null && !userHome.isBlank() && !context.environment().containsKey("GIT_CONFIG_GLOBAL")) {
            // HOME moves to scratch: the agent's git still reads the user's identity and settings
            b.env("GIT_CONFIG_GLOBAL", Path.of(userHome, ".gitconfig").toString());
        }
        boolean openai = provider.serves(ApiStyle.OPENAI);
        b.env("COPILOT_HOME", scratch.resolve(HOME_DIR).toString())
                .env("HOME", scratch.resolve(USER_HOME_DIR).toString())
                .env("TMPDIR", scratch.resolve(TMP_DIR).toString())
                .env("COPILOT_OFFLINE", "true") // no auth, telemetry, web tools, GitHub MCP, auto-update
                .env("COPILOT_PROVIDER_TYPE", openai ? "openai" : "anthropic")
                // OpenAI: the SDK appends /chat/completions to .../v1; Anthropic: it appends /v1/messages
                .env("COPILOT_PROVIDER_BASE_URL", openai ? provider.v1Url() : provider.rootUrl())
                .env("COPILOT_MODEL", context.model())
                .env("NO_COLOR", "1")
                .env("PWD", workspace.toString());
        // a keyless endpoint still gets a placeholder: the CLI wants a key in BYOK mode
        b.secretEnv(KEY_ENV, provider.secret() != null ? provider.secret().reveal() : "none");
        return b.build();
    }

    /**
     * The run's MCP servers in Copilot CLI's {@code mcp-config.json} shape: {@code type} {@code
     * local} with {@code command}, {@code args}, {@code env}, or {@code http} with {@code url}; every
     * tool allowed ({@code tools: ["*"]}).
     */
    static String mcpConfig(HarnessContext context) {
        ObjectNode root = JSON.createObjectNode();
        ObjectNode servers = root.putObject("mcpServers");
        for (McpServer m : context.mcpServers()) {
            ObjectNode s = servers.putObject(m.name());
            if (m instanceof McpServer.Http http) {
                s.put("type", "http").put("url", http.url().toString());
            } else if (m instanceof McpServer.Stdio stdio) {
                s.put("type", "local").put("command", stdio.command());
                stdio.args().forEach(s.putArray("args")::add);
                stdio.env().forEach(s.putObject("env")::put);
            }
            s.putArray("tools").add("*");
        }
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n";
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("could not render the Copilot CLI MCP config", e);
        }
    }
}
