package dev.harness4j.claude;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessException;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.ResolvedProvider;
import java.net.URI;
import java.util.Locale;
import java.util.Optional;

/**
 * Translates a run context into the {@code claude -p} invocation: argv, per-run config dir,
 * endpoint, key and model environment. Pure: no I/O. Package-private; {@link ClaudeCodeHarness}
 * is the public face.
 */
final class ClaudeInvocations {
    /** The key a keyless provider gets, since the CLI will not start without one. */
    static final String NO_KEY_PLACEHOLDER = "harness4j-no-key";

    /** The config dir below the run's scratch dir that replaces {@code ~/.claude} and {@code ~/.claude.json}. */
    static final String CONFIG_DIR_NAME = "claude-config";

    /** The host of Anthropic's own API; any other host is a custom endpoint. */
    static final String FIRST_PARTY_HOST = "api.anthropic.com";

    /**
     * Inherited variables removed before the run's own are set: every {@code ANTHROPIC_*} (a
     * stray key, base URL or model must not redirect the run), the switches to other clouds
     * ({@code CLAUDE_CODE_USE_BEDROCK}, {@code _VERTEX}, ...), a user's {@code CLAUDE_CONFIG_DIR},
     * and {@code CLAUDECODE}, which marks a process as running inside another Claude Code session.
     */
    static final String[] REMOVED_ENVIRONMENT = {
        "ANTHROPIC_*", "CLAUDE_CODE_USE_*", "CLAUDE_CONFIG_DIR", "CLAUDECODE", "CLAUDE_CODE_SESSION_ID",
        "CLAUDE_CODE_ENTRYPOINT"
    };

    private ClaudeInvocations() {}

    static Invocation of(HarnessContext context) {
        ResolvedProvider provider = context.provider();
        requireAnthropic(provider);
        int maxOutputTokens = positiveIntOption(context, ClaudeCodeHarness.OPTION_MAX_OUTPUT_TOKENS,
                ClaudeCodeHarness.DEFAULT_MAX_OUTPUT_TOKENS, 1);
        Integer maxRetries = context.option(ClaudeCodeHarness.OPTION_MAX_RETRIES).isPresent()
                ? positiveIntOption(context, ClaudeCodeHarness.OPTION_MAX_RETRIES, 0, 0)
                : null;

        Invocation.Builder b = Invocation.builder(context.executable(),
                "-p", "--output-format", "stream-json", "--verbose",
                "--model", context.model(),
                "--dangerously-skip-permissions");
        if (context.followUpSession().isPresent()) {
            b.args("--resume", context.followUpSession().get()); // the session saved in this scratch dir's config dir
        }
        if (!context.keepSession()) {
            b.args("--no-session-persistence"); // nothing will continue it: write no session file
        }
        if (context.limits().maxTurns() != null) {
            b.args("--max-turns", Integer.toString(context.limits().maxTurns()));
        }
        if (context.systemPrompt() != null && !context.systemPrompt().isBlank()) {
            b.args("--append-system-prompt", context.systemPrompt());
        }
        ClaudeMcp.add(b, context);
        b.stdin(context.prompt()).workingDir(context.workspace());

        environment(b, context, maxOutputTokens, maxRetries, true);
        if (booleanOption(context, ClaudeCodeHarness.OPTION_API_DEBUG_LOG, true)) {
            b.env("ANTHROPIC_LOG", "debug");
        }
        return b.build();
    }

    /**
     * {@code claude auth status --json} with the same config dir, endpoint and key a run gets,
     * so the probe reports the login the run would use. Makes no model call.
     */
    static Invocation loginProbe(HarnessContext context) {
        requireAnthropic(context.provider());
        Invocation.Builder b = Invocation.builder(context.executable(), "auth", "status", "--json")
                .workingDir(context.workspace());
        environment(b, context, ClaudeCodeHarness.DEFAULT_MAX_OUTPUT_TOKENS, null, false);
        return b.build();
    }

    private static void environment(Invocation.Builder b, HarnessContext context, int maxOutputTokens,
            Integer maxRetries, boolean placeholderKey) {
        ResolvedProvider provider = context.provider();
        for (String name : REMOVED_ENVIRONMENT) {
            b.removeEnv(name);
        }
        b.env("CLAUDE_CONFIG_DIR", configDir(context));
        b.env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1");
        b.env("CLAUDE_CODE_MAX_OUTPUT_TOKENS", Integer.toString(maxOutputTokens));
        if (maxRetries != null) {
            b.env("CLAUDE_CODE_MAX_RETRIES", Integer.toString(maxRetries));
        }
        if (context.runningAsRoot()) {
            b.env("IS_SANDBOX", "1");
        }
        b.env("ANTHROPIC_BASE_URL", provider.rootUrl());
        String keyVariable = provider.auth() == AuthScheme.BEARER ? "ANTHROPIC_AUTH_TOKEN" : "ANTHROPIC_API_KEY";
        if (provider.secret() != null) {
            b.secretEnv(keyVariable, provider.secret().reveal());
        } else if (placeholderKey) {
            // a keyless endpoint (a local gateway, the scripted server): the CLI refuses to run
            // without some credential ("Not logged in"), so it gets a placeholder that is no secret
            b.env(keyVariable, NO_KEY_PLACEHOLDER);
            // (the login probe gets none: it reports the CLI's own login, which then is "not logged in")
        }
        if (isCustomEndpoint(provider.baseUrl())) {
            String model = context.model();
            for (String name : new String[] {"ANTHROPIC_MODEL", "ANTHROPIC_DEFAULT_OPUS_MODEL",
                "ANTHROPIC_DEFAULT_SONNET_MODEL", "ANTHROPIC_DEFAULT_HAIKU_MODEL", "CLAUDE_CODE_SUBAGENT_MODEL"}) {
                b.env(name, model);
            }
        }
    }

    private static void requireAnthropic(ResolvedProvider provider) {
        unsupported(provider).ifPresent(why -> {
            throw new HarnessException(why);
        });
    }

    /** Why Claude Code cannot run on this provider (see {@link ClaudeCodeHarness#unsupported}), or empty. */
    static Optional<String> unsupported(ResolvedProvider provider) {
        if (provider.usesCliLogin()) {
            return Optional.of("claude-code cannot use provider '" + provider.name() + "', the CLI's own login: "
                    + "its runs use a private CLAUDE_CONFIG_DIR, so the user's claude login is never seen; "
                    + "configure the provider with a base_url (and key_env)");
        }
        if (!provider.serves(ApiStyle.ANTHROPIC)) {
            return Optional.of("claude-code cannot run on provider '" + provider.name() + "' at "
                    + provider.baseUrl() + ": it serves " + provider.apiStyles()
                    + " but Claude Code speaks only the Anthropic Messages API (ANTHROPIC). "
                    + "Pick a provider that serves ANTHROPIC (e.g. a gateway with an Anthropic-style route), "
                    + "or another harness such as opencode or aider for this provider.");
        }
        return Optional.empty();
    }

    /** The per-run config dir (absolute path as text). */
    static String configDir(HarnessContext context) {
        return context.scratchDir().toAbsolutePath().resolve(CONFIG_DIR_NAME).toString();
    }

    /** Whether the base URL points anywhere but Anthropic's own API. */
    static boolean isCustomEndpoint(URI baseUrl) {
        String host = baseUrl.getHost();
        return host == null || !host.toLowerCase(Locale.ROOT).equals(FIRST_PARTY_HOST);
    }

    private static boolean booleanOption(HarnessContext context, String key, boolean fallback) {
        String raw = context.option(key).orElse(null);
        if (raw == null) {
            return fallback;
        }
        String v = raw.trim().toLowerCase(Locale.ROOT);
        if (v.equals("true") || v.equals("false")) {
            return v.equals("true");
        }
        throw new HarnessException("claude-code option '" + key + "' must be true or false, was '" + raw
                + "'; fix the run spec's options");
    }

    private static int positiveIntOption(HarnessContext context, String key, int fallback, int min) {
        String raw = context.option(key).orElse(null);
        if (raw == null) {
            return fallback;
        }
        try {
            int v = Integer.parseInt(raw.trim());
            if (v >= min) {
                return v;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new HarnessException("claude-code option '" + key + "' must be an integer >= " + min + ", was '"
                + raw + "'; fix the run spec's options (e.g. option(\"" + key + "\", \"" + Math.max(min, fallback)
                + "\"))");
    }
}
