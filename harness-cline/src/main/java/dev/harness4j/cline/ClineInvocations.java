package dev.harness4j.cline;

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
 * Translates a run context into the {@code cline} invocation: argv, the per-run data dir with its
 * {@code settings/providers.json}, and the environment. Pure: no I/O. Package-private; {@link
 * ClineHarness} is the public face.
 */
final class ClineInvocations {
    /** The per-run {@code --data-dir}, relative to the scratch dir: settings, sessions, logs, caches. */
    static final String DATA_DIR = "cline/data";

    /**
     * The provider settings, relative to the scratch dir, in the shape {@code cline auth -p openai -b
     * URL -k KEY -m MODEL --data-dir D} writes. Cline 3.0.65 reads the key only from this file
     * ({@code CLINE_API_KEY} is its own account's key), so the key is in it; the runner writes
     * invocation files owner-only (0600) into the scratch dir.
     */
    static final String PROVIDERS_FILE = DATA_DIR + "/settings/providers.json";

    /** The MCP settings, relative to the scratch dir ({@code CLINE_MCP_SETTINGS_PATH}): the run's servers only. */
    static final String MCP_FILE = DATA_DIR + "/settings/cline_mcp_settings.json";

    /** The process's {@code HOME}, relative to the scratch dir: Cline's default state dir {@code ~/.cline} is never the user's. */
    static final String USER_HOME_DIR = "cline/home";

    /** The run's {@code TMPDIR}, relative to the scratch dir. */
    static final String TMP_DIR = "cline/tmp";

    /** Cline's provider id for an OpenAI-compatible endpoint. */
    static final String PROVIDER = "openai-compatible";

    /** What {@code apiKey} holds for an endpoint without a key. */
    static final String NO_KEY = "none";

    /**
     * Inherited variables removed: {@code CLINE_*} (a stray provider, key, model, data dir or
     * settings path must not redirect the run), {@code OPENAI_*} and {@code TMPDIR} (replaced).
     */
    static final String[] REMOVED_ENVIRONMENT = {"CLINE_*", "OPENAI_*", "TMPDIR"};

    private static final ObjectMapper JSON = new ObjectMapper();

    private ClineInvocations() {}

    /** Why Cline cannot run on this provider, or empty. */
    static Optional<String> unsupported(ResolvedProvider provider) {
        if (provider.usesCliLogin()) {
            return Optional.of("cline cannot use provider '" + provider.name() + "', the CLI's own login: its runs "
                    + "use a private --data-dir, so the user's Cline account is never seen; configure the provider "
                    + "with a base_url (and key_env)");
        }
        if (!provider.serves(ApiStyle.OPENAI)) {
            return Optional.of("cline cannot talk to provider '" + provider.name() + "': it serves "
                    + provider.apiStyles() + ", but this adapter runs Cline on the OpenAI chat completions API "
                    + "(POST /v1/chat/completions); declare the endpoint's OpenAI API if it serves it, or run this "
                    + "provider with another harness");
        }
        return Optional.empty();
    }

    static Invocation of(HarnessContext context) {
        unsupported(context.provider()).ifPresent(why -> {
            throw new HarnessException(why);
        });
        Path workspace = context.workspace().toAbsolutePath().normalize();
        Path scratch = context.scratchDir().toAbsolutePath().normalize();
        // no --provider / --model: with them Cline 3.0.65 rewrites providers.json without its baseUrl
        // (and then calls the provider's default host); the file's lastUsedProvider selects the run's.
        // The prompt is the last argument: Cline 3.0.65 runs headless (act mode, auto-approve) on it
        Invocation.Builder b = Invocation.builder(context.executable(),
                "--json",
                "--data-dir", scratch.resolve(DATA_DIR).toString(),
                "--cwd", workspace.toString(),
                context.prompt());
        b.stdin(null).workingDir(workspace);
        b.file(PROVIDERS_FILE, providers(context));
        if (!context.mcpServers().isEmpty()) {
            b.file(MCP_FILE, mcpSettings(context));
            b.env("CLINE_MCP_SETTINGS_PATH", scratch.resolve(MCP_FILE).toString());
        }
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
        b.env("HOME", scratch.resolve(USER_HOME_DIR).toString())
                .env("TMPDIR", scratch.resolve(TMP_DIR).toString())
                .env("CLINE_DATA_DIR", scratch.resolve(DATA_DIR).toString())
                .env("NO_COLOR", "1")
                .env("PWD", workspace.toString());
        return b.build();
    }

    /**
     * The run's MCP servers as {@code mcpServers}: {@code command}, {@code args}, {@code env} for a
     * stdio server, {@code url} with {@code type streamableHttp} for an HTTP one; none disabled.
     */
    static String mcpSettings(HarnessContext context) {
        ObjectNode root = JSON.createObjectNode();
        ObjectNode servers = root.putObject("mcpServers");
        for (McpServer m : context.mcpServers()) {
            ObjectNode s = servers.putObject(m.name()).put("disabled", false);
            if (m instanceof McpServer.Http http) {
                s.put("type", "streamableHttp").put("url", http.url().toString());
            } else if (m instanceof McpServer.Stdio stdio) {
                s.put("type", "stdio").put("command", stdio.command());
                stdio.args().forEach(s.putArray("args")::add);
                stdio.env().forEach(s.putObject("env")::put);
            }
        }
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n";
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("could not render Cline MCP settings", e);
        }
    }

    /** The {@code providers.json} text: the run's endpoint, model and key as Cline's only provider. */
    static String providers(HarnessContext context) {
        ResolvedProvider p = context.provider();
        ObjectNode root = JSON.createObjectNode();
        root.put("version", 1);
        root.put("lastUsedProvider", PROVIDER);
        root.putObject("modes");
        ObjectNode entry = root.putObject("providers").putObject(PROVIDER);
        entry.putObject("settings")
                .put("provider", PROVIDER)
                .put("apiKey", p.secret() != null ? p.secret().reveal() : NO_KEY)
                .put("model", context.model())
                .put("baseUrl", p.v1Url());
        entry.put("updatedAt", "1970-01-01T00:00:00.000Z");
        entry.put("tokenSource", "manual");
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n";
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("could not render Cline providers.json", e);
        }
    }
}
