package dev.harness4j.qwen;

import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.Invocation;
import java.nio.file.Path;

/**
 * Translates a run context into the {@code qwen} invocation: argv, the per-run {@code QWEN_HOME}
 * with its settings file, and the environment. Pure: no I/O. Package-private; {@link QwenHarness}
 * is the public face.
 */
final class QwenInvocations {
    /** The per-run {@code QWEN_HOME}, relative to the scratch dir: settings, runtime files, caches. */
    static final String HOME_DIR = "qwen/home";

    /**
     * The settings file, relative to the scratch dir, passed as Qwen Code's <em>system</em> settings
     * ({@code QWEN_CODE_SYSTEM_SETTINGS_PATH}): they win over the workspace's {@code
     * .qwen/settings.json}, which is task content and could turn telemetry back on.
     */
    static final String SETTINGS_FILE = "qwen/system-settings.json";

    /**
     * The process's {@code HOME}, relative to the scratch dir (created: Qwen Code 0.24.4 fails at
     * start when {@code HOME} does not exist). Qwen Code reads {@code ~/.env} and {@code
     * ~/.qwen/.env} whatever {@code QWEN_HOME} says; a per-run {@code HOME} keeps the user's from
     * filling in a key, endpoint or switch.
     */
    static final String USER_HOME_DIR = "qwen/user-home";

    /** The run's {@code TMPDIR}, relative to the scratch dir: Qwen Code's tool temp files stay in scratch. */
    static final String TMP_DIR = "qwen/tmp";

    /** What {@code OPENAI_API_KEY} holds for an endpoint without a key: set, so no {@code .env} file fills it. */
    static final String NO_KEY = "none";

    /**
     * Inherited variables removed before the run's own are set: {@code OPENAI_*}, {@code QWEN_*}
     * and {@code DASHSCOPE_*} (a stray key, base URL, model or home must not redirect the run), and
     * {@code TMPDIR} (replaced).
     */
    static final String[] REMOVED_ENVIRONMENT = {"OPENAI_*", "QWEN_*", "DASHSCOPE_*", "TMPDIR"};

    private QwenInvocations() {}

    static Invocation of(HarnessContext context) {
        Path workspace = context.workspace().toAbsolutePath().normalize();
        Path scratch = context.scratchDir().toAbsolutePath().normalize();
        String settings = QwenSettings.render(context); // refuses a provider it cannot serve first
        Invocation.Builder b = Invocation.builder(context.executable(),
                "--output-format", "stream-json",
                "--yolo",
                "--auth-type", "openai",
                "--model", context.model(),
                "--openai-base-url", context.provider().v1Url(),
                "--chat-recording", Boolean.toString(context.keepSession())); // a kept run's session is saved
        context.followUpSession().ifPresent(id -> b.args("--resume", id)); // kept in the per-run QWEN_HOME
        if (context.limits().maxTurns() != null) {
            b.args("--max-session-turns", String.valueOf(context.limits().maxTurns()));
        }
        if (context.systemPrompt() != null && !context.systemPrompt().isBlank()) {
            b.args("--append-system-prompt", context.systemPrompt());
        }
        // the prompt goes through stdin (core writes it, then closes the pipe): with no prompt
        // argument and a non-terminal stdin, qwen runs headless on what stdin held
        b.stdin(context.prompt()).workingDir(workspace);
        b.file(SETTINGS_FILE, settings);
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
        b.env("QWEN_HOME", scratch.resolve(HOME_DIR).toString())
                .env("QWEN_CODE_SYSTEM_SETTINGS_PATH", scratch.resolve(SETTINGS_FILE).toString())
                .env("HOME", scratch.resolve(USER_HOME_DIR).toString())
                .env("TMPDIR", scratch.resolve(TMP_DIR).toString())
                // set, never left for a .env file to fill: the run's endpoint and model
                .env("OPENAI_BASE_URL", context.provider().v1Url())
                .env("OPENAI_MODEL", context.model())
                .env("NO_COLOR", "1")
                .env("NO_BROWSER", "1")
                .env("PWD", workspace.toString());
        if (context.provider().secret() != null) {
            b.secretEnv(QwenSettings.KEY_ENV, context.provider().secret().reveal());
        } else {
            // a keyless endpoint: a placeholder, so a .env file cannot supply the user's own key
            b.env(QwenSettings.KEY_ENV, NO_KEY);
        }
        return b.build();
    }
}
