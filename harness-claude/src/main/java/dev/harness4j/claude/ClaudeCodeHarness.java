package dev.harness4j.claude;

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
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Runs Claude Code ({@code claude -p --output-format stream-json --verbose}) headless and reads
 * its result envelope. Registered for {@link java.util.ServiceLoader}; id {@code claude-code}, {@link
 * CompletionMode#STRUCTURED}.
 *
 * <pre>{@code
 * RunSpec spec = RunSpec.builder(ClaudeCodeHarness.ID, "my-gateway").model("sonnet")
 *         .prompt("Add a README").baseline(Path.of("/src/repo"))
 *         .option(ClaudeCodeHarness.OPTION_MAX_OUTPUT_TOKENS, "8192")
 *         .build();
 * }</pre>
 *
 * <p>What it does for a run:
 * <ul>
 *   <li>argv {@code claude -p --output-format stream-json --verbose --model <model>
 *       --dangerously-skip-permissions --no-session-persistence} (+ {@code --resume <session>} on a
 *       follow-up, and no {@code --no-session-persistence} for a run kept for one; + {@code --max-turns} from
 *       {@code Limits.maxTurns()}, + {@code --append-system-prompt} from the spec's system
 *       prompt); the prompt goes on stdin, never in argv (an agent's own {@code pkill -f} could
 *       match it). {@code stream-json} rather than {@code json}: it ends with the same result
 *       envelope, but also prints every message as it happens, which keeps the inactivity guard
 *       fed during a long healthy run and names the model that answered each turn (the
 *       envelope's {@code modelUsage} only names the model that was asked for);
 *   <li>a per-run {@code CLAUDE_CONFIG_DIR} in the run's scratch dir, so the user's {@code
 *       ~/.claude} and {@code ~/.claude.json} are neither read nor written;
 *   <li>every inherited {@code ANTHROPIC_*} removed, then {@code ANTHROPIC_BASE_URL} and the key
 *       ({@code ANTHROPIC_API_KEY}, or {@code ANTHROPIC_AUTH_TOKEN} for bearer auth, marked
 *       secret); on any endpoint but {@code api.anthropic.com} also {@code ANTHROPIC_MODEL},
 *       {@code ANTHROPIC_DEFAULT_{OPUS,SONNET,HAIKU}_MODEL} and {@code CLAUDE_CODE_SUBAGENT_MODEL}
 *       set to the run's model, so background calls ask for a model the endpoint serves;
 *   <li>{@code IS_SANDBOX=1} when the JVM runs as root (the CLI refuses the permission bypass for
 *       root otherwise), {@code CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1}.
 * </ul>
 *
 * <p>Options ({@code RunSpec.options}):
 * <ul>
 *   <li>{@value #OPTION_MAX_OUTPUT_TOKENS}: {@code CLAUDE_CODE_MAX_OUTPUT_TOKENS}, default
 *       {@value #DEFAULT_MAX_OUTPUT_TOKENS}. The CLI asks unknown models for 32000 output tokens,
 *       which many endpoints refuse with a 400;
 *   <li>{@value #OPTION_MAX_RETRIES}: {@code CLAUDE_CODE_MAX_RETRIES}, how often the CLI itself
 *       retries a 429 or 5xx before it gives up (unset: the CLI's default). Set {@code 0} when
 *       the caller retries (harness4j's queue retries {@code transient} and {@code rate-limited});
 *   <li>{@value #OPTION_API_DEBUG_LOG}: {@code true} (default) or {@code false}, whether the API
 *       client logs response headers (see the constant).
 * </ul>
 *
 * <p>A provider that does not serve {@link dev.harness4j.api.ApiStyle#ANTHROPIC} is refused by
 * {@link #prepare} with a {@link dev.harness4j.api.HarnessException} before anything starts. How
 * the envelope maps to an outcome is described on {@code ClaudeResults}: in short, guard stops
 * win, a clean envelope is {@code completed} (or {@code no-op} when nothing changed), an error
 * envelope is classified (context-overflow, rate-limited with reset time, auth, transient,
 * bad-request, max-turns, budget), and a missing envelope is {@code error} quoting the last output.
 */
public final class ClaudeCodeHarness implements Harness {
    /** This adapter's id. */
    public static final String ID = "claude-code";

    /** Option: the CLI's max output tokens per model call. */
    public static final String OPTION_MAX_OUTPUT_TOKENS = "max-output-tokens";

    /**
     * Default for {@value #OPTION_MAX_OUTPUT_TOKENS}: 16384, accepted by current Claude models and
     * most gateway models, and enough for a file-sized edit in one tool call. Lower it for
     * endpoints with a smaller limit (e.g. 8192).
     */
    public static final int DEFAULT_MAX_OUTPUT_TOKENS = 16_384;

    /** Option: how often the CLI retries a rate-limited or failed model call itself. */
    public static final String OPTION_MAX_RETRIES = "max-retries";

    /**
     * Option: {@code true} (default) sets {@code ANTHROPIC_LOG=debug}, so the CLI's API client
     * prints each request's status and response headers to stdout; that is the only place a
     * 429's {@code retry-after} and {@code anthropic-ratelimit-*-reset} headers appear, from
     * which a {@code rate-limited} run's reset time is read. Request bodies are printed collapsed
     * (no prompt text) and the key as {@code ***}. {@code false} keeps the transcript quiet.
     */
    public static final String OPTION_API_DEBUG_LOG = "api-debug-log";

    private final Clock clock;

    /** The adapter as {@link java.util.ServiceLoader} creates it. */
    public ClaudeCodeHarness() {
        this(Clock.systemUTC());
    }

    /** With a clock, which turns relative rate-limit waits ("retry after 30 s") into reset times. */
    ClaudeCodeHarness(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

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
        return CompletionMode.STRUCTURED;
    }

    @Override
    public InstallInfo installInfo() {
        return new InstallInfo("claude", List.of("--version"), "npm i -g @anthropic-ai/claude-code@2.1.197");
    }

    /**
     * {@inheritDoc}
     *
     * <p>Refuses the CLI's own login (runs use a private {@code CLAUDE_CONFIG_DIR}) and a provider
     * that does not serve {@link dev.harness4j.api.ApiStyle#ANTHROPIC}. {@link #prepare} refuses
     * the same providers with the same text.
     */
    @Override
    public Optional<String> unsupported(ResolvedProvider provider) {
        return ClaudeInvocations.unsupported(provider);
    }

    @Override
    public Invocation prepare(HarnessContext context) {
        return ClaudeInvocations.of(context);
    }

    /**
     * {@inheritDoc}
     *
     * <p>A relative rate-limit wait ("retry after 30 s") counts from the end of the process when
     * the execution says when that was, else from this adapter's clock.
     */
    @Override
    public HarnessResult interpret(Execution execution) {
        return ClaudeResults.interpret(execution,
                execution.finishedAt() != null ? execution.finishedAt() : clock.instant());
    }

    /**
     * True: a run reports its {@code session_id} (from the result envelope), and a follow-up run
     * continues it with {@code --resume <id>} in the same private config dir; a run kept for a
     * follow-up saves its session (no {@code --no-session-persistence}).
     */
    @Override
    public boolean supportsFollowUp() {
        return true;
    }

    /**
     * True: the run's MCP servers go to a per-run {@code --mcp-config} file in the scratch dir,
     * with {@code --strict-mcp-config} (no other MCP configuration is read); their tools reach the
     * model as {@code mcp__<server>__<tool>}.
     */
    @Override
    public boolean supportsMcp() {
        return true;
    }

    /** {@code claude auth status --json} with the run's config dir and key; makes no model call. */
    @Override
    public Optional<Invocation> loginProbe(HarnessContext context) {
        return Optional.of(ClaudeInvocations.loginProbe(context));
    }

    @Override
    public Login interpretLogin(Execution execution) {
        return ClaudeLogins.interpret(execution);
    }

    @Override
    public Optional<String> loginCommand() {
        return Optional.of("claude auth login");
    }

    /** The steps from the {@code stream-json} lines ({@link ClaudeTrajectory}). */
    @Override
    public Optional<Stream<TrajectoryStep>> trajectory(Execution execution) {
        return Optional.of(ClaudeTrajectory.of(execution));
    }
}
