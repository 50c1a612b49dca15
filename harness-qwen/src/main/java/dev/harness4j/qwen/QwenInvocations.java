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

    /** The settings file, relative to the scratch dir. */
    static final String SETTINGS_FILE = HOME_DIR + "/settings.json";

    /**
     * Inherited variables removed before the run's own are set: {@code OPENAI_*}, {@code QWEN_*}
     * and {@code DASHSCOPE_*} (a stray key, base URL, model or home must not redirect the run).
     */
    static final String[] REMOVED_ENVIRONMENT = {"OPENAI_*", "QWEN_*", "DASHSCOPE_*"};

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
                "--chat-recording", "false");
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
        for (String name : REMOVED_ENVIRONMENT) {
            b.removeEnv(name);
        }
        b.env("QWEN_HOME", scratch.resolve(HOME_DIR).toString())
                .env("NO_COLOR", "1")
                .env("NO_BROWSER", "1")
                .env("PWD", workspace.toString());
        if (context.provider().secret() != null) {
            b.secretEnv(QwenSettings.KEY_ENV, context.provider().secret().reveal());
        }
        return b.build();
    }
}
