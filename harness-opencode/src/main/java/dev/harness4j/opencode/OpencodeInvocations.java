package dev.harness4j.opencode;

import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.Invocation;
import java.nio.file.Path;
import java.util.Map;

/**
 * Translates a run context into the {@code opencode run} invocation: argv, per-run config file,
 * per-run XDG dirs and environment. Pure: no I/O. Package-private; {@link OpencodeHarness} is the
 * public face.
 */
final class OpencodeInvocations {
    /** Everything opencode reads or writes for a run lives below this dir of the scratch dir. */
    static final String HOME_DIR = "opencode";

    /** The config file, relative to the scratch dir. */
    static final String CONFIG_FILE = HOME_DIR + "/opencode.json";

    /** Text added to the system prompt, relative to the scratch dir (only when the run has some). */
    static final String SYSTEM_PROMPT_FILE = HOME_DIR + "/system-prompt.md";

    /** The XDG base dirs, relative to the scratch dir; even {@code --help} writes below them. */
    static final String XDG_DIR = HOME_DIR + "/xdg";

    /** opencode's global config dir ({@code $XDG_CONFIG_HOME/opencode}), relative to the scratch dir. */
    static final String GLOBAL_CONFIG_DIR = XDG_DIR + "/config/opencode";

    /** npm's cache for anything opencode's embedded npm still does, relative to the scratch dir. */
    static final String NPM_CACHE_DIR = HOME_DIR + "/npm-cache";

    /**
     * The package opencode adds to every config dir it loads and installs there with its embedded
     * npm, from the npm registry, unless the dir's {@code package-lock.json} already lists it and
     * a {@code node_modules} dir exists. It is the SDK that a user's plugins and custom tools in
     * that dir import; nothing else loads it.
     */
    static final String PLUGIN_SDK = "@opencode-ai/plugin";

    /**
     * What is written into the per-run global config dir so that opencode sees its plugin SDK as
     * installed: {@code package.json}, {@code package-lock.json} (opencode compares only the
     * dependency <em>names</em> of the two) and a {@code node_modules} dir. Without them opencode
     * installs the SDK and its dependencies (about 60 MB) into this fresh dir on every run, from
     * the npm registry and through the user's {@code ~/.npm}, which costs seconds, needs the
     * network and writes the user's HOME. The per-run config dir holds no plugins and no custom
     * tools, so nothing ever imports the SDK: it need not be installed anywhere, at install time
     * or at run time.
     */
    static final Map<String, String> PLUGIN_SDK_SEED = Map.of(
            GLOBAL_CONFIG_DIR + "/package.json",
            "{\"dependencies\":{\"" + PLUGIN_SDK + "\":\"*\"}}\n",
            GLOBAL_CONFIG_DIR + "/package-lock.json",
            "{\"name\":\"opencode\",\"lockfileVersion\":3,\"requires\":true,\"packages\":{\"\":"
                    + "{\"dependencies\":{\"" + PLUGIN_SDK + "\":\"*\"}}}}\n",
            GLOBAL_CONFIG_DIR + "/node_modules/README.harness4j",
            "harness4j: this run loads no opencode plugins, so " + PLUGIN_SDK + " is not installed here.\n");

    /**
     * Inherited variables removed before the run's own are set: {@code ANTHROPIC_*} and {@code
     * OPENAI_*} (a stray key or base URL must not redirect the run), every {@code OPENCODE_*} (a
     * user's {@code OPENCODE_CONFIG_DIR}, {@code OPENCODE_CONFIG_CONTENT} or {@code
     * OPENCODE_PERMISSION} would override the per-run config) and the XDG base dirs.
     */
    static final String[] REMOVED_ENVIRONMENT = {
        "ANTHROPIC_*", "OPENAI_*", "OPENCODE_*", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"
    };

    private OpencodeInvocations() {}

    static Invocation of(HarnessContext context) {
        Path workspace = context.workspace().toAbsolutePath().normalize();
        Path scratch = context.scratchDir().toAbsolutePath().normalize();
        boolean hasSystemPrompt = context.systemPrompt() != null && !context.systemPrompt().isBlank();
        Path systemPromptFile = hasSystemPrompt ? scratch.resolve(SYSTEM_PROMPT_FILE) : null;

        Invocation.Builder b = Invocation.builder(context.executable(),
                "run",
                "--format", "json",
                "--model", OpencodeConfig.PROVIDER_ID + "/" + context.model(),
                "--dir", workspace.toString(),
                // a title of our own: opencode then skips its separate title-generation call
                "--title", "harness4j " + context.runId(),
                "--dangerously-skip-permissions");
        context.followUpSession().ifPresent(id -> b.args("--session", id)); // in the kept XDG data dir
        // The prompt goes through stdin, which opencode reads to the end (core closes it after
        // writing): an argv prompt with spaces reaches the model wrapped in quotes, with its own
        // quotes backslash-escaped, and an argv prompt is visible to the agent's own pkill -f.
        b.stdin(context.prompt()).workingDir(workspace);
        b.file(CONFIG_FILE, OpencodeConfig.render(context, systemPromptFile));
        if (hasSystemPrompt) {
            b.file(SYSTEM_PROMPT_FILE, context.systemPrompt());
        }
        PLUGIN_SDK_SEED.forEach(b::file);

        environment(b, context);
        return b.build();
    }

    /**
     * {@code opencode auth list} with the run's config file, XDG dirs and key: what opencode
     * would log in with (credentials in its {@code auth.json}, provider variables in the
     * environment). Makes no model call.
     */
    static Invocation loginProbe(HarnessContext context) {
        Invocation.Builder b = Invocation.builder(context.executable(), "auth", "list")
                .workingDir(context.scratchDir().toAbsolutePath().normalize());
        b.file(CONFIG_FILE, OpencodeConfig.render(context, null));
        PLUGIN_SDK_SEED.forEach(b::file);
        environment(b, context);
        return b.build();
    }

    private static void environment(Invocation.Builder b, HarnessContext context) {
        Path workspace = context.workspace().toAbsolutePath().normalize();
        Path scratch = context.scratchDir().toAbsolutePath().normalize();
        for (String name : REMOVED_ENVIRONMENT) {
            b.removeEnv(name);
        }
        Path xdg = scratch.resolve(XDG_DIR);
        b.env("OPENCODE_CONFIG", scratch.resolve(CONFIG_FILE).toString())
                .env("XDG_CONFIG_HOME", xdg.resolve("config").toString())
                .env("XDG_DATA_HOME", xdg.resolve("data").toString())
                .env("XDG_CACHE_HOME", xdg.resolve("cache").toString())
                .env("XDG_STATE_HOME", xdg.resolve("state").toString())
                .env("PWD", workspace.toString())
                // whatever opencode's embedded npm still does (a project's own .opencode dir with
                // plugins) stays in the scratch dir and off the network: never the user's ~/.npm
                .env("npm_config_cache", scratch.resolve(NPM_CACHE_DIR).toString())
                .env("npm_config_offline", "true")
                .env("OPENCODE_DISABLE_MODELS_FETCH", "1")
                .env("OPENCODE_DISABLE_AUTOUPDATE", "1")
                .env("OPENCODE_DISABLE_SHARE", "1")
                .env("OPENCODE_DISABLE_LSP_DOWNLOAD", "1")
                // do not read the user's ~/.claude (CLAUDE.md, skills) into the run's prompt
                .env("OPENCODE_DISABLE_CLAUDE_CODE", "1");
        if (context.provider().secret() != null) {
            b.secretEnv(OpencodeConfig.KEY_ENV, context.provider().secret().reveal());
        }
    }
}
