package dev.harness4j.codex;

import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.Invocation;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Translates a run context into the {@code codex exec} invocation: argv, the per-run {@code
 * CODEX_HOME} with its config file, a per-run {@code HOME}, and the environment. Pure: no I/O. Package-private; {@link
 * CodexHarness} is the public face.
 */
final class CodexInvocations {
    /** The per-run {@code CODEX_HOME}, relative to the scratch dir: config, state databases, helpers. */
    static final String HOME_DIR = "codex/home";

    /**
     * The process's {@code HOME}, relative to the scratch dir (created, empty). Codex's shell tool
     * starts a login shell ({@code bash -lc}) that sources {@code ~/.profile} or {@code
     * ~/.bash_profile} (and a shell snapshot reads {@code ~/.bashrc}): with the user's HOME, their
     * rc files ran for every command, and a {@code pyenv init} in them rewrote {@code ~/.pyenv}.
     * With a per-run HOME only the system's {@code /etc/profile} is read, and whatever the CLI or
     * the agent writes below {@code ~} stays in scratch. The same for every run, confined or not.
     */
    static final String USER_HOME_DIR = "codex/user-home";

    /** The config file, relative to the scratch dir. */
    static final String CONFIG_FILE = HOME_DIR + "/config.toml";

    /**
     * What Codex logs to stderr: errors, each HTTP response's status and headers (for a rate
     * limit's reset time), and each Responses API event (for the model that answered).
     */
    static final String RUST_LOG = "error,codex_http_client::client=debug,codex_api::sse::responses=trace";

    /**
     * Inherited variables removed before the run's own are set: {@code OPENAI_*} and {@code
     * CODEX_*} (a stray key, base URL or {@code CODEX_HOME} must not redirect the run), {@code
     * RUST_LOG} (replaced), {@code RUST_BACKTRACE}, and the variables that make a shell source
     * a file of the user's ({@code BASH_ENV}, {@code ENV}, {@code ZDOTDIR}).
     */
    static final String[] REMOVED_ENVIRONMENT = {"OPENAI_*", "CODEX_*", "RUST_LOG", "RUST_BACKTRACE", "BASH_ENV", "ENV",
        "ZDOTDIR"};

    private CodexInvocations() {}

    static Invocation of(HarnessContext context) {
        Path workspace = context.workspace().toAbsolutePath().normalize();
        Path scratch = context.scratchDir().toAbsolutePath().normalize();
        Optional<String> resume = context.followUpSession();
        Invocation.Builder b = Invocation.builder(context.executable(), "exec");
        if (resume.isPresent()) {
            b.arg("resume"); // continues in the session's own directory; takes neither --color nor --cd
        }
        b.arg("--json");
        if (resume.isEmpty()) {
            b.args("--color", "never");
        }
        if (!context.keepSession()) {
            b.arg("--ephemeral"); // a run kept for a follow-up saves its session in the per-run CODEX_HOME
        }
        b.args("--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox", "--model", context.model());
        if (resume.isPresent()) {
            b.arg(resume.get());
        } else {
            b.args("--cd", workspace.toString());
        }
        // "-": the prompt is read from stdin (core writes it, then closes the pipe); an argv
        // prompt would be visible to the agent's own pkill -f
        b.arg("-");
        b.stdin(context.prompt()).workingDir(workspace);
        b.file(CONFIG_FILE, CodexConfig.render(context));
        b.file(USER_HOME_DIR + "/.keep", "");
        for (String name : REMOVED_ENVIRONMENT) {
            b.removeEnv(name);
        }
        String userHome = context.environment().get("HOME");
        if (userHome != null && !userHome.isBlank() && !context.environment().containsKey("GIT_CONFIG_GLOBAL")) {
            // HOME moves to scratch: the agent's git still reads the user's identity and settings
            b.env("GIT_CONFIG_GLOBAL", Path.of(userHome, ".gitconfig").toString());
        }
        b.env("CODEX_HOME", scratch.resolve(HOME_DIR).toString())
                .env("HOME", scratch.resolve(USER_HOME_DIR).toString())
                .env("RUST_LOG", RUST_LOG)
                .env("NO_COLOR", "1")
                .env("PWD", workspace.toString());
        if (context.provider().secret() != null) {
            b.secretEnv(CodexConfig.KEY_ENV, context.provider().secret().reveal());
        }
        return b.build();
    }
}
