package dev.harness4j.aider;

import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessException;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.ResolvedProvider;
import java.nio.file.Path;

/**
 * Translates a run context into the aider process to start (the pure half of {@link
 * AiderHarness#prepare}).
 *
 * <p>The process is a small POSIX {@code sh} script ({@link #LAUNCH_SCRIPT}, written to the
 * scratch dir) that readies the checkout and then {@code exec}s aider with the arguments that
 * follow it on the command line:
 *
 * <ol>
 *   <li>it adds {@code .aider*} to the exclude file {@code git rev-parse --git-path info/exclude}
 *       names (right for clones and worktrees alike), so aider's own files ({@code
 *       .aider.tags.cache.v4/}, ...) stay out of git and out of the diff. A worktree has no
 *       exclude file of its own: git reads the one of the repository it belongs to, so a
 *       worktree run adds that one line, once, to the baseline's {@code .git/info/exclude} (no
 *       other file of the baseline is written); aider runs with {@code --no-gitignore}, so it neither commits a
 *       {@code .gitignore} change (which would move HEAD and fake a completion) nor edits one;
 *   <li>it hands aider's git the user's identity as command-scope config ({@code
 *       GIT_CONFIG_COUNT}, read under the user's real {@code HOME}; {@code harness4j
 *       <harness4j@localhost>} when there is none), because aider runs with {@code HOME} in the
 *       scratch dir and would otherwise write a placeholder identity into the repository's
 *       config, which for a worktree is the baseline's.
 * </ol>
 *
 * <p>The prompt goes in a file ({@code --message-file}), never in argv; the key goes in the
 * route's variable ({@code OPENAI_API_KEY}, {@code ANTHROPIC_API_KEY} or {@code GEMINI_API_KEY},
 * see {@link AiderRoute}), marked secret. {@code HOME} is a scratch dir, so the user's {@code ~/.aider*}
 * stay untouched; it is seeded with a non-empty model price cache so aider does not try to
 * download one on every start. The endpoint is also passed in argv ({@code --openai-api-base}, or
 * {@code --set-env ANTHROPIC_API_BASE=...} / {@code GEMINI_API_BASE=...}), which beats a {@code
 * .env} file committed in the repository (aider loads those over the environment, then applies
 * {@code --set-env}).
 *
 * <p>Since {@code --yes-always} answers every question with yes, the invocation also turns off
 * what a yes would set off headless: scraping URLs found in the prompt ({@code
 * --no-detect-urls}), installing Playwright ({@code --disable-playwright}) and opening a browser
 * on an error's help link ({@code BROWSER=true}). Shell commands the model suggests are not run
 * ({@code --yes-always} does not cover them).
 */
final class AiderLaunch {
    /** The launch script, relative to the scratch dir. */
    static final String LAUNCH_SCRIPT = "aider-launch.sh";
    /** The prompt, relative to the scratch dir. */
    static final String MESSAGE_FILE = "aider-message.md";
    /** The system prompt as a read-only conventions file, relative to the scratch dir. */
    static final String CONVENTIONS_FILE = "aider-conventions.md";
    /** aider's {@code HOME}, relative to the scratch dir. */
    static final String HOME_DIR = "aider-home";
    /** The seeded model price cache, relative to the scratch dir. */
    static final String PRICE_CACHE = HOME_DIR + "/.aider/caches/model_prices_and_context_window.json";
    /** aider's chat history, relative to the scratch dir. */
    static final String CHAT_HISTORY = "aider-chat.history.md";
    /** aider's input history, relative to the scratch dir. */
    static final String INPUT_HISTORY = "aider-input.history";

    /** Where the launch script reads the user's real home from (to find their git identity). */
    static final String USER_HOME_ENV = "HARNESS4J_USER_HOME";

    /**
     * The console width aider's output library is given, so that it does not wrap error and
     * usage lines at 80 columns (the parser reads them whole).
     */
    static final String COLUMNS = "1000";

    /**
     * Non-empty, so aider believes its price cache is fresh and never fetches one; prices then
     * come from the table bundled with LiteLLM ({@code LITELLM_LOCAL_MODEL_COST_MAP}).
     */
    static final String PRICE_CACHE_CONTENT = "{\"harness4j-seeded\": {}}\n";

    /**
     * What Python's {@code webbrowser} runs instead of a browser: with {@code --yes-always} aider
     * answers yes to "Open URL for more info?" after an error and would start one.
     */
    static final String NO_BROWSER = "true";

    /** A key aider's OpenAI client accepts when the endpoint needs none (it refuses an empty one). */
    static final String NO_KEY = "harness4j-no-key";

    static final String SCRIPT = """
            #!/bin/sh
            # Written by harness4j's aider adapter. Runs in the workspace; "$@" is aider and its arguments.
            # 1. Keep aider's own files out of git and out of the diff: add .aider* (once) to the
            #    exclude file git names for this checkout (for a worktree: the one it shares).
            exclude=$(git rev-parse --git-path info/exclude 2>/dev/null)
            if [ -n "$exclude" ]; then
                mkdir -p "$(dirname -- "$exclude")"
                if ! grep -qxF '.aider*' "$exclude" 2>/dev/null; then
                    printf '\\n.aider*\\n' >> "$exclude"
                fi
            fi
            # 2. aider's HOME is a scratch dir: hand its git the user's identity as command-scope
            #    config, or aider writes a placeholder identity into the repository's config.
            h4j_name=$(HOME="${HARNESS4J_USER_HOME:-$HOME}" git config user.name 2>/dev/null)
            h4j_email=$(HOME="${HARNESS4J_USER_HOME:-$HOME}" git config user.email 2>/dev/null)
            h4j_name=${h4j_name:-harness4j}
            h4j_email=${h4j_email:-harness4j@localhost}
            n=${GIT_CONFIG_COUNT:-0}
            case $n in ''|*[!0-9]*) n=0 ;; esac
            eval "GIT_CONFIG_KEY_$n=user.name GIT_CONFIG_VALUE_$n=\\"\\$h4j_name\\"; export GIT_CONFIG_KEY_$n GIT_CONFIG_VALUE_$n"
            n=$((n + 1))
            eval "GIT_CONFIG_KEY_$n=user.email GIT_CONFIG_VALUE_$n=\\"\\$h4j_email\\"; export GIT_CONFIG_KEY_$n GIT_CONFIG_VALUE_$n"
            GIT_CONFIG_COUNT=$((n + 1))
            export GIT_CONFIG_COUNT
            unset h4j_name h4j_email n exclude
            exec "$@"
            """;

    private AiderLaunch() {}

    /**
     * The invocation for one run.
     *
     * @throws HarnessException when aider cannot use the provider ({@link AiderRoute#unsupported}),
     *     or an option is invalid
     */
    static Invocation invocation(HarnessContext ctx) {
        ResolvedProvider provider = ctx.provider();
        AiderRoute.unsupported(provider).ifPresent(why -> {
            throw new HarnessException(why);
        });
        AiderRoute route = AiderRoute.of(provider).orElseThrow();
        String baseUrl = route.baseUrl(provider);
        AiderOptions options = AiderOptions.from(ctx);
        Path scratch = ctx.scratchDir().toAbsolutePath();

        Invocation.Builder b = Invocation.builder("/bin/sh", scratch.resolve(LAUNCH_SCRIPT).toString(), ctx.executable())
                .args("--message-file", scratch.resolve(MESSAGE_FILE).toString())
                .args("--model", route.model(ctx.model()))
                .args("--edit-format", options.editFormat())
                .arg(options.autoCommits() ? "--auto-commits" : "--no-auto-commits")
                .arg(options.stream() ? "--stream" : "--no-stream")
                .args("--yes-always", "--no-pretty", "--no-fancy-input", "--no-check-update",
                        "--no-show-release-notes", "--no-analytics", "--no-show-model-warnings", "--no-gitignore",
                        "--no-restore-chat-history", "--no-detect-urls", "--disable-playwright")
                .args("--chat-history-file", scratch.resolve(CHAT_HISTORY).toString())
                .args("--input-history-file", scratch.resolve(INPUT_HISTORY).toString());
        // the endpoint also in argv, which beats a .env file committed in the repository
        if (route == AiderRoute.OPENAI) {
            b.args("--openai-api-base", baseUrl);
        } else {
            b.args("--set-env", route.baseEnv() + "=" + baseUrl);
        }
        if (ctx.systemPrompt() != null && !ctx.systemPrompt().isBlank()) {
            b.args("--read", scratch.resolve(CONVENTIONS_FILE).toString());
            b.file(CONVENTIONS_FILE, ctx.systemPrompt());
        }

        b.removeEnv("ANTHROPIC_*").removeEnv("OPENAI_*").removeEnv("GEMINI_*").removeEnv("GOOGLE_API_KEY")
                .removeEnv("LITELLM_*").removeEnv("AIDER_*").removeEnv("PYTHONPATH").removeEnv("PYTHONHOME")
                .removeEnv("GIT_DIR").removeEnv("GIT_WORK_TREE").removeEnv("GIT_INDEX_FILE");
        b.env(route.baseEnv(), baseUrl);
        if (provider.secret() != null) {
            b.secretEnv(route.keyEnv(), provider.secret().reveal());
        } else {
            b.env(route.keyEnv(), NO_KEY);
        }
        b.env("PYTHONUNBUFFERED", "1")
                .env("LITELLM_LOCAL_MODEL_COST_MAP", "True")
                .env("HOME", scratch.resolve(HOME_DIR).toString())
                .env("COLUMNS", COLUMNS)
                .env("BROWSER", NO_BROWSER);
        String userHome = ctx.environment().get("HOME");
        if (userHome != null && !userHome.isBlank()) {
            b.env(USER_HOME_ENV, userHome);
        }

        return b.file(LAUNCH_SCRIPT, SCRIPT)
                .file(MESSAGE_FILE, ctx.prompt())
                .file(PRICE_CACHE, PRICE_CACHE_CONTENT)
                .workingDir(ctx.workspace())
                .build();
    }
}
