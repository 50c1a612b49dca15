package dev.harness4j.gemini;

import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.Invocation;
import java.nio.file.Path;

/**
 * Translates a run context into the {@code gemini} invocation: argv, the per-run {@code
 * GEMINI_CLI_HOME} with its settings (and the system prompt as its global {@code GEMINI.md}), and
 * the environment. Pure: no I/O. Package-private; {@link GeminiHarness} is the public face.
 */
final class GeminiInvocations {
    /** The per-run {@code GEMINI_CLI_HOME}, relative to the scratch dir; the CLI keeps its state in {@code .gemini/} below it. */
    static final String HOME_DIR = "gemini/home";

    /** The settings file, relative to the scratch dir. */
    static final String SETTINGS_FILE = HOME_DIR + "/.gemini/settings.json";

    /**
     * The same settings as Gemini CLI's <em>system</em> settings ({@code
     * GEMINI_CLI_SYSTEM_SETTINGS_PATH}), relative to the scratch dir: they win over the task repo's
     * {@code .gemini/settings.json}. Gemini CLI 0.61.0 skips a system settings file unless it and
     * every directory above it are owned by root and not writable by group or others ("Security
     * Warning: Skipping system settings file" on stderr), so they hold only for a root-owned state
     * dir ({@link GeminiSystemSettings}); the telemetry switches are pinned by environment as well.
     */
    static final String SYSTEM_SETTINGS_FILE = "gemini/system-settings.json";

    /** The global context file, relative to the scratch dir: the run's system prompt, when it has one. */
    static final String CONTEXT_FILE = HOME_DIR + "/.gemini/GEMINI.md";

    /**
     * The run's {@code TMPDIR}, relative to the scratch dir: Gemini CLI writes error reports
     * ({@code gemini-client-error-*.json}) to the system temp dir, which must not be {@code /tmp}.
     */
    static final String TMP_DIR = "gemini/tmp";

    /**
     * Inherited variables removed before the run's own are set: {@code GEMINI_*} and {@code
     * GOOGLE_*} (a stray key, base URL, model, Vertex or Code Assist switch, or home must not
     * redirect the run), {@code CLOUD_SHELL} (switches to the machine's Google credentials), {@code
     * DEBUG} and {@code DEBUG_MODE} (debug output), and {@code TMPDIR} (replaced).
     */
    static final String[] REMOVED_ENVIRONMENT = {"GEMINI_*", "GOOGLE_*", "CLOUD_SHELL", "DEBUG", "DEBUG_MODE", "TMPDIR"};

    private GeminiInvocations() {}

    static Invocation of(HarnessContext context) {
        Path workspace = context.workspace().toAbsolutePath().normalize();
        Path scratch = context.scratchDir().toAbsolutePath().normalize();
        // no prompt in argv: with stdin not a terminal, Gemini CLI runs headless and reads the
        // prompt from stdin (core writes it, then closes the pipe); an argv prompt would be
        // visible to the agent's own pkill -f
        Invocation.Builder b = Invocation.builder(context.executable(),
                "--output-format", "stream-json",
                "--model", context.model(),
                "--approval-mode", "yolo");
        context.followUpSession().ifPresent(id -> b.args("--resume", id)); // kept in the per-run GEMINI_CLI_HOME
        b.stdin(context.prompt()).workingDir(workspace);
        String settings = GeminiSettings.render(context);
        b.file(SETTINGS_FILE, settings);
        b.file(SYSTEM_SETTINGS_FILE, settings);
        if (context.systemPrompt() != null && !context.systemPrompt().isBlank()) {
            b.file(CONTEXT_FILE, context.systemPrompt().strip() + "\n");
        }
        b.file(TMP_DIR + "/.keep", "");
        for (String name : REMOVED_ENVIRONMENT) {
            b.removeEnv(name);
        }
        b.env("GEMINI_CLI_HOME", scratch.resolve(HOME_DIR).toString())
                .env("GOOGLE_GEMINI_BASE_URL", context.provider().rootUrl())
                .env("GEMINI_CLI_SYSTEM_SETTINGS_PATH", scratch.resolve(SYSTEM_SETTINGS_FILE).toString())
                // the environment beats every settings file for the CLI's own telemetry, and a .env file
                // fills only unset names (its extension manager reads the settings alone, though)
                .env("GEMINI_TELEMETRY_ENABLED", "false")
                .env("GEMINI_TELEMETRY_LOG_PROMPTS", "false")
                .env("TMPDIR", scratch.resolve(TMP_DIR).toString())
                .env("NO_COLOR", "1")
                .env("PWD", workspace.toString());
        if (context.provider().secret() != null) {
            b.secretEnv("GEMINI_API_KEY", context.provider().secret().reveal());
        } else {
            // the CLI refuses the API-key auth type without a key; an endpoint that needs none gets a dummy
            b.env("GEMINI_API_KEY", "none");
        }
        return b.build();
    }
}
