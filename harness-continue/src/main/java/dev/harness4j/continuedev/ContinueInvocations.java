package dev.harness4j.continuedev;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessException;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.McpServer;
import dev.harness4j.api.ResolvedProvider;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Translates a run context into the {@code cn} invocation: argv, the per-run {@code config.yaml},
 * {@code CONTINUE_GLOBAL_DIR}, {@code HOME} and {@code TMPDIR}, and the environment the key travels
 * in. Pure: no I/O. Package-private; {@link ContinueHarness} is the public face.
 */
final class ContinueInvocations {
    /** The per-run config ({@code --config}), relative to the scratch dir: the run's model and MCP servers. */
    static final String CONFIG_FILE = "continue/config.yaml";

    /** The per-run {@code CONTINUE_GLOBAL_DIR}, relative to the scratch dir: sessions, logs, permissions. */
    static final String GLOBAL_DIR = "continue/global";

    /**
     * Continue's global context, relative to the scratch dir, seeded with {@code autoUpdateCli: false}:
     * a run never updates the pinned CLI.
     */
    static final String GLOBAL_CONTEXT_FILE = GLOBAL_DIR + "/index/globalContext.json";

    /** The process's {@code HOME}, relative to the scratch dir: {@code ~/.continue} is never the user's. */
    static final String USER_HOME_DIR = "continue/home";

    /** The run's {@code TMPDIR}, relative to the scratch dir. */
    static final String TMP_DIR = "continue/tmp";

    /**
     * The variable the key travels in: the config says {@code apiKey: ${{ secrets.H4J_CONTINUE_API_KEY }}},
     * which Continue 1.5.47 resolves from the process environment first, so the key is in no file.
     */
    static final String KEY_ENV = "H4J_CONTINUE_API_KEY";

    /** The name of the run's one model in the config. */
    static final String MODEL_NAME = "harness4j";

    /**
     * Inherited variables removed: {@code CONTINUE_*} (a stray global dir, hub base or API key must
     * not redirect the run), {@code H4J_CONTINUE_*} and {@code TMPDIR} (replaced).
     */
    static final String[] REMOVED_ENVIRONMENT = {"CONTINUE_*", "H4J_CONTINUE_*", "TMPDIR"};

    private static final ObjectMapper JSON = new ObjectMapper();

    private ContinueInvocations() {}

    /** Why Continue cannot run on this provider, or empty. */
    static Optional<String> unsupported(ResolvedProvider provider) {
        if (provider.usesCliLogin()) {
            return Optional.of("continue cannot use provider '" + provider.name() + "', the CLI's own login: its "
                    + "runs read only a per-run config.yaml (CONTINUE_GLOBAL_DIR in the scratch dir), so a Continue "
                    + "hub login is never seen; configure the provider with a base_url (and key_env)");
        }
        if (!provider.serves(ApiStyle.OPENAI) && !provider.serves(ApiStyle.ANTHROPIC)) {
            return Optional.of("continue cannot talk to provider '" + provider.name() + "': it serves "
                    + provider.apiStyles() + ", but this adapter runs Continue on the OpenAI chat completions API "
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
                "-p",
                "--auto",
                "--config", scratch.resolve(CONFIG_FILE).toString(),
                "--format", "json",
                prompt);
        b.stdin(null).workingDir(workspace);
        b.file(CONFIG_FILE, config(context));
        b.file(GLOBAL_CONTEXT_FILE, "{\"autoUpdateCli\": false}\n");
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
        b.env("CONTINUE_GLOBAL_DIR", scratch.resolve(GLOBAL_DIR).toString())
                .env("HOME", scratch.resolve(USER_HOME_DIR).toString())
                .env("TMPDIR", scratch.resolve(TMP_DIR).toString())
                .env("CONTINUE_METRICS_ENABLED", "0")
                .env("CONTINUE_CLI_ENABLE_TELEMETRY", "0")
                .env("CONTINUE_CLI_AUTO_UPDATED", "1") // with autoUpdateCli false: never an npm update
                .env("NO_COLOR", "1")
                .env("PWD", workspace.toString());
        // a keyless endpoint still gets a placeholder: the secret reference must resolve
        b.secretEnv(KEY_ENV, provider.secret() != null ? provider.secret().reveal() : "none");
        return b.build();
    }

    /**
     * The {@code config.yaml} text (schema v1): the run's model as the only one, for the chat, edit
     * and apply roles, its key a reference to {@link #KEY_ENV}; the run's MCP servers under {@code
     * mcpServers} ({@code command}/{@code args}/{@code env}, or {@code type: streamable-http} with
     * {@code url}). Every scalar is a double-quoted YAML string (JSON's escapes are YAML's).
     */
    static String config(HarnessContext context) {
        ResolvedProvider p = context.provider();
        boolean openai = p.serves(ApiStyle.OPENAI);
        StringBuilder y = new StringBuilder();
        y.append("name: ").append(q("harness4j run " + context.runId())).append('\n')
                .append("version: \"0.0.1\"\n")
                .append("schema: v1\n")
                .append("models:\n")
                .append("  - name: ").append(q(MODEL_NAME)).append('\n')
                .append("    provider: ").append(openai ? "openai" : "anthropic").append('\n')
                .append("    model: ").append(q(context.model())).append('\n')
                // OpenAI: the SDK appends chat/completions to .../v1/; Anthropic: messages to .../v1/
                .append("    apiBase: ").append(q(p.v1Url() + "/")).append('\n')
                .append("    apiKey: \"${{ secrets.").append(KEY_ENV).append(" }}\"\n")
                .append("    roles: [chat, edit, apply]\n");
        if (!context.mcpServers().isEmpty()) {
            y.append("mcpServers:\n");
            for (McpServer m : context.mcpServers()) {
                y.append("  - name: ").append(q(m.name())).append('\n');
                if (m instanceof McpServer.Http http) {
                    y.append("    type: streamable-http\n")
                            .append("    url: ").append(q(http.url().toString())).append('\n');
                } else if (m instanceof McpServer.Stdio stdio) {
                    y.append("    type: stdio\n").append("    command: ").append(q(stdio.command())).append('\n');
                    y.append("    args: [");
                    for (int i = 0; i < stdio.args().size(); i++) {
                        y.append(i > 0 ? ", " : "").append(q(stdio.args().get(i)));
                    }
                    y.append("]\n");
                    if (!stdio.env().isEmpty()) {
                        y.append("    env:\n");
                        for (Map.Entry<String, String> e : stdio.env().entrySet()) {
                            y.append("      ").append(q(e.getKey())).append(": ").append(q(e.getValue())).append('\n');
                        }
                    }
                }
            }
        }
        return y.toString();
    }

    /** A double-quoted YAML scalar: JSON's string escapes are valid YAML ones. */
    private static String q(String s) {
        try {
            return JSON.writeValueAsString(s);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("could not quote a config value", e);
        }
    }
}
