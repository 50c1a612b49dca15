package dev.harness4j.opencode;

import dev.harness4j.api.CompletionMode;
import dev.harness4j.api.Execution;
import dev.harness4j.api.Harness;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.InstallInfo;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.Login;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.TrajectoryStep;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Runs opencode ({@code opencode-ai}) headless: {@code opencode run --format json}, isolated in
 * per-run config and state dirs, with outcome, tokens and summary read from its event stream.
 * Registered for {@link java.util.ServiceLoader}; id {@value #ID}, {@link CompletionMode#OPAQUE}.
 *
 * <h2>What a run looks like</h2>
 * <ul>
 *   <li>argv: {@code opencode run --format json --model harness4j/<model> --dir <workspace>
 *       --title "harness4j <run id>" --dangerously-skip-permissions}; {@code --dir} is required
 *       because opencode resolves its directory from {@code $PWD} and follows git back to the
 *       original repository without it. The title of our own makes opencode skip its separate
 *       title-generation model call, so the endpoint sees only the session's own steps.
 *   <li>the prompt goes through stdin (written, then closed by core): opencode reads stdin to
 *       its end and sends it verbatim, whereas an argv prompt containing spaces reaches the model
 *       wrapped in quotes with its quotes backslash-escaped.
 *   <li>a per-run {@code OPENCODE_CONFIG} in the scratch dir (never in the workspace): one
 *       provider {@code harness4j} at {@code <base>/v1}, the run's model (priced when the run
 *       sets the price options), {@code enabled_providers: [harness4j]}, {@code autoupdate:
 *       false}, {@code share: "disabled"}, edit and bash allowed, {@code agent.build.steps} from
 *       {@code Limits.maxTurns}, the system prompt as an {@code instructions} file. The key is
 *       never in the file: it says {@code {env:HARNESS4J_OPENCODE_API_KEY}} and the value
 *       travels as a secret environment variable.
 *   <li>{@code XDG_CONFIG_HOME}, {@code XDG_DATA_HOME}, {@code XDG_CACHE_HOME}, {@code
 *       XDG_STATE_HOME} in the scratch dir; {@code OPENCODE_DISABLE_MODELS_FETCH=1} and the
 *       other switches that stop downloads, sharing and reading {@code ~/.claude};
 *       {@code ANTHROPIC_*}, {@code OPENAI_*} and a user's {@code OPENCODE_*} removed.
 *   <li>no download and nothing written outside the scratch dir: opencode installs its plugin
 *       SDK ({@code @opencode-ai/plugin}, about 60 MB with its dependencies) into every config
 *       dir it loads, from the npm registry through {@code ~/.npm}, which for a fresh per-run
 *       config dir meant every run. A run loads no plugins, so the per-run config dir is seeded
 *       to show the SDK as installed and opencode installs nothing; {@code npm_config_cache}
 *       points into the scratch dir and {@code npm_config_offline=true}, so a project's own
 *       {@code .opencode} dir with plugins fails to install them instead of reaching the
 *       network or the user's HOME.
 * </ul>
 *
 * <h2>Isolation caveat</h2>
 * opencode caches its project id (the repository's root commit) in a file {@code opencode} in
 * git's <em>common</em> dir, ignoring write errors, and no switch turns that off. With {@link
 * dev.harness4j.api.Isolation#CLONE} (the default) that is the clone's own {@code .git}; with
 * {@link dev.harness4j.api.Isolation#WORKTREE} it is the baseline's {@code .git/opencode} (40
 * bytes; working tree, index, HEAD and refs stay untouched). Use clones where the baseline's
 * {@code .git} must stay byte-identical.
 *
 * <h2>Providers</h2>
 * An endpoint that serves the OpenAI API is used through opencode's bundled provider package
 * {@code @ai-sdk/openai-compatible} (the key as a bearer token). An Anthropic-only endpoint is
 * used through the bundled {@code @ai-sdk/anthropic} ({@code x-api-key}, or {@code Authorization:
 * Bearer} for {@link dev.harness4j.api.AuthScheme#BEARER}). Any other endpoint is refused in
 * {@link #prepare} with a message that says why, before anything starts.
 *
 * <h2>What is measured</h2>
 * <ul>
 *   <li>outcome: exit code and git changes (completed / no-op / error), refined by {@code error}
 *       events: {@code ContextOverflowError} (or a 400 whose text speaks of the context window)
 *       is context-overflow, {@code ProviderAuthError} and 401/403 auth, 429 rate-limited (with
 *       the reset time when the response said it), 5xx transient, other 4xx bad-request; an
 *       error without a status that opencode marks {@code isRetryable} (a dropped connection)
 *       transient.
 *       opencode itself retries 429 and 5xx up to five times with backoff before it gives up.
 *   <li>tokens: the sum over {@code step_finish} events; {@code output} counts opencode's
 *       output and reasoning tokens together; {@code input} excludes cache reads and writes as
 *       opencode reports it. The title call is not made (see above), so the figure covers
 *       every model call the run made; were it made, its tokens would appear in no {@code
 *       step_finish}, and the adapter's figure would fall short of what a gateway measures by
 *       that call. Unmeasured when no step finished; a figure no step carried is absent, and
 *       so are cache writes on an OpenAI-compatible endpoint, whose usage has no such figure
 *       (opencode prints 0 for them all the same).
 *   <li>cost: the sum of {@code step_finish.cost} only when the run priced the model with
 *       {@value #OPTION_PRICE_INPUT} and {@value #OPTION_PRICE_OUTPUT} (USD per million tokens;
 *       {@value #OPTION_PRICE_CACHE_READ} and {@value #OPTION_PRICE_CACHE_WRITE} optional).
 *       Otherwise opencode prices the model at 0, and the cost is absent, not 0.
 *   <li>served model: unmeasured. opencode's events name no model, and the assistant message
 *       it stores carries the requested id, not the one the endpoint answered with.
 *   <li>summary: the last {@code text} event the model wrote (opencode's synthetic texts, such
 *       as its note after compacting the conversation, are skipped).
 * </ul>
 */
public final class OpencodeHarness implements Harness {
    /** This adapter's id. */
    public static final String ID = "opencode";

    /** Option: the model's input price in USD per million tokens; turns cost measurement on. */
    public static final String OPTION_PRICE_INPUT = "price-input";

    /** Option: the model's output price in USD per million tokens (required with the input price). */
    public static final String OPTION_PRICE_OUTPUT = "price-output";

    /** Option: the price of cache reads in USD per million tokens (optional). */
    public static final String OPTION_PRICE_CACHE_READ = "price-cache-read";

    /** Option: the price of cache writes in USD per million tokens (optional). */
    public static final String OPTION_PRICE_CACHE_WRITE = "price-cache-write";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public int apiVersion() {
        return API_VERSION; // the harness-api contract this adapter was built against
    }

    @Override
    public CompletionMode completionMode() {
        return CompletionMode.OPAQUE;
    }

    @Override
    public InstallInfo installInfo() {
        return new InstallInfo("opencode", List.of("--version"), "npm i -g opencode-ai@1.18.33");
    }

    /**
     * {@inheritDoc}
     *
     * <p>Refuses the CLI's own login (runs use private XDG dirs) and a provider that serves neither
     * {@link dev.harness4j.api.ApiStyle#OPENAI} nor {@link dev.harness4j.api.ApiStyle#ANTHROPIC}.
     * {@link #prepare} refuses the same providers with the same text.
     */
    @Override
    public Optional<String> unsupported(ResolvedProvider provider) {
        return OpencodeConfig.unsupported(provider);
    }

    /**
     * {@inheritDoc}
     *
     * @throws dev.harness4j.api.HarnessException when the provider serves neither the OpenAI nor
     *     the Anthropic API, or a price option is not a number
     */
    @Override
    public Invocation prepare(HarnessContext context) {
        return OpencodeInvocations.of(context);
    }

    @Override
    public HarnessResult interpret(Execution execution) {
        return OpencodeResults.interpret(execution);
    }

    /** {@code opencode auth list} with the run's config, XDG dirs and key; makes no model call. */
    @Override
    public Optional<Invocation> loginProbe(HarnessContext context) {
        return Optional.of(OpencodeInvocations.loginProbe(context));
    }

    @Override
    public Login interpretLogin(Execution execution) {
        return OpencodeLogins.interpret(execution);
    }

    @Override
    public Optional<String> loginCommand() {
        return Optional.of("opencode auth login");
    }

    /** True: the run's MCP servers go to {@code mcp} of the per-run {@code OPENCODE_CONFIG} file. */
    @Override
    public boolean supportsMcp() {
        return true;
    }

    /**
     * True: a run reports its session id (the events' {@code sessionID}), and a follow-up run
     * continues it with {@code --session <id>} in the same per-run XDG data dir, where opencode
     * keeps its sessions.
     */
    @Override
    public boolean supportsFollowUp() {
        return true;
    }

    /** The steps from the {@code --format json} events ({@link OpencodeTrajectory}). */
    @Override
    public Optional<Stream<TrajectoryStep>> trajectory(Execution execution) {
        return Optional.of(OpencodeTrajectory.of(execution));
    }
}
