package dev.harness4j.api;

import java.util.Optional;
import java.util.stream.Stream;

/**
 * The SPI one adapter implements to make a coding-agent CLI runnable by harness4j.
 *
 * <p>Both translations are <em>pure</em>: {@link #prepare} turns a context into the invocation
 * to start, {@link #interpret} turns what the process did into a result. Neither may start a
 * process, a thread or a timer, nor write a file: harness-core owns all of that, which keeps an
 * adapter small and testable without spawning anything. Implementations must be thread-safe
 * (one instance serves concurrent runs) and have a public no-argument constructor when they are
 * registered for {@link java.util.ServiceLoader} in
 * {@code META-INF/services/dev.harness4j.api.Harness}.
 *
 * <pre>{@code
 * import dev.harness4j.api.support.Outcomes; // the shared outcome rules
 *
 * public final class MyHarness implements Harness {
 *     public String id() { return "my-agent"; }
 *     public CompletionMode completionMode() { return CompletionMode.OPAQUE; }
 *     public InstallInfo installInfo() {
 *         return new InstallInfo("my-agent", List.of("--version"), "npm i -g my-agent@1.2.3");
 *     }
 *     public Invocation prepare(HarnessContext ctx) {
 *         return Invocation.builder(ctx.executable(), "run", "--yes")
 *                 .stdin(ctx.prompt()).workingDir(ctx.workspace()).build();
 *     }
 *     public HarnessResult interpret(Execution ex) {
 *         return HarnessResult.builder(Outcomes.opaque(ex), ex.context().model()).build();
 *     }
 * }
 * }</pre>
 */
public interface Harness {

    /**
     * The version of this contract in this harness-api: {@value}. It grows when the contract
     * changes in a way an adapter must know of (version 2 added {@link HarnessContext#task()} and
     * said exactly what the runner adds to the prompt). An adapter states the version it was
     * built against by returning this constant from {@link #apiVersion()} (the compiler copies its
     * value into the adapter), so that harness-core can refuse an adapter built against a newer
     * contract than the one it runs with, with a clear message, instead of failing mid-run.
     */
    int API_VERSION = 2;

    /**
     * The contract version this adapter was built against: implement it as {@code return
     * Harness.API_VERSION;}. The default, {@code 0}, means "not declared" (an adapter written
     * before versions existed): it is accepted.
     *
     * @return {@link #API_VERSION} as the adapter saw it at compile time, or 0
     */
    default int apiVersion() {
        return 0;
    }

    /**
     * Stable identifier such as {@code claude-code}, {@code opencode}, {@code aider}.
     *
     * @return the harness id, unique among the registered adapters
     */
    String id();

    /**
     * Whether the CLI returns a machine-readable result envelope.
     *
     * @return how a finished run is recognised
     */
    CompletionMode completionMode();

    /**
     * The binary, how to ask its version and how to install it.
     *
     * @return the install information
     */
    InstallInfo installInfo();

    /**
     * Translates a run context into the process to start. Pure: no I/O.
     *
     * @param context the run's context
     * @return the process to start
     * @throws HarnessException when the context cannot be served (for example a provider
     *     that speaks no API this CLI understands); nothing has started at that point
     */
    Invocation prepare(HarnessContext context);

    /**
     * Translates what the process did into a result. Pure: reads only the execution's files.
     *
     * @param execution what the process did
     * @return the run's result
     */
    HarnessResult interpret(Execution execution);

    /**
     * Why this adapter cannot run against a provider, or empty when it can (the default): a
     * provider that serves no API style the CLI speaks, say, or the CLI's own login for a CLI
     * whose runs never see it. Bench and job plans ask it for every harness × provider pair
     * before anything is queued, so an impossible pair is refused up front instead of ending
     * {@code error} at run time. Pure and cheap: it may read only the provider (no I/O, no
     * process). An adapter that overrides it makes {@link #prepare} refuse the same providers
     * with the same text, so that the plan and the run cannot disagree. The text names the
     * provider, says what the CLI speaks and how to fix it, and never holds the key.
     *
     * <pre>{@code
     * public Optional<String> unsupported(ResolvedProvider p) {
     *     return p.serves(ApiStyle.OPENAI) ? Optional.empty()
     *             : Optional.of("my-agent speaks only OpenAI chat, but provider '" + p.name()
     *                     + "' serves " + p.apiStyles() + "; pick a provider that serves OPENAI");
     * }
     * }</pre>
     *
     * @param provider the resolved provider, its model included
     * @return why this adapter refuses the provider, or empty when it can serve it
     */
    default Optional<String> unsupported(ResolvedProvider provider) {
        return Optional.empty();
    }

    /**
     * Whether a finished run of this CLI can be continued by a follow-up prompt in its own session
     * ({@code HarnessRunner.followUp}). An adapter that says so reports the session in {@link
     * HarnessResult#sessionId()} and, when {@link HarnessContext#resumeSession()} is set, makes
     * {@link #prepare} continue that session (Claude Code's {@code --resume <id>}, say) instead of
     * starting a new one. The default, false, makes the runner refuse a follow-up of this harness
     * before anything starts.
     *
     * @return whether the adapter resumes sessions
     */
    default boolean supportsFollowUp() {
        return false;
    }

    /**
     * The ACP session harness-core drives for this run instead of running {@link #prepare}'s
     * process with a closed stdin, or empty (the default) for a CLI run as one process. Pure, like
     * {@link #prepare}: it describes the agent's launch and the permission policy, and harness-core
     * does all the I/O ({@link AcpSession} says what it sends). An adapter that returns one makes
     * {@link #prepare} return the same {@link AcpSession#launch()} and reads the session's
     * JSON-RPC output in {@link #interpret} and {@link #trajectory}.
     *
     * @param context the run's context
     * @return the session to drive, or empty when the CLI is run as one process
     * @throws HarnessException when the context cannot be served; nothing has started then
     */
    default Optional<AcpSession> acpSession(HarnessContext context) {
        return Optional.empty();
    }

    /**
     * Whether this adapter gives its CLI the run's MCP servers ({@link RunSpec#mcpServers()}): it
     * writes each {@link HarnessContext#mcpServers() server} into the CLI's own per-run
     * configuration (a file in the scratch dir or its flags, never the user's), for both {@link
     * McpServer.Stdio} and {@link McpServer.Http} servers. The default, false, makes the runner
     * refuse a run with MCP servers before anything is written, and bench and job plans refuse
     * that combination up front.
     *
     * @return whether the adapter passes MCP servers to its CLI
     */
    default boolean supportsMcp() {
        return false;
    }

    /**
     * Whether runs of this harness reach a model through a provider; {@code true} (the default)
     * for every coding agent. A harness that calls no model (a reference harness that does nothing,
     * or that runs a task's known solution) returns {@code false}: the runner then resolves no
     * provider for its runs (the spec's provider and model are labels only; a bench plan needs no
     * provider for it), its {@link HarnessContext#provider()} has no endpoint (as for {@link
     * ResolvedProvider#cliLogin}, with the spec's names) and its runs are never metered. Workspace,
     * supervision, limits and sandbox are those of any run.
     *
     * @return whether the harness needs a provider
     */
    default boolean needsProvider() {
        return true;
    }

    /**
     * An invocation that asks the CLI whether it is logged in, making no model call; empty when
     * the CLI has no such probe (the default).
     *
     * @param context the run's context (executable, environment, scratch dir)
     * @return the probe to start, or empty when there is none
     */
    default Optional<Invocation> loginProbe(HarnessContext context) {
        return Optional.empty();
    }

    /**
     * Parses what {@link #loginProbe} printed; the default says the login is unknown.
     *
     * @param execution what the probe process did
     * @return what the CLI said about its login
     */
    default Login interpretLogin(Execution execution) {
        return Login.unknown();
    }

    /**
     * The command a user runs to log this CLI in (e.g. {@code claude auth login}), named in the
     * error when a runner that requires a login refuses a run; empty (the default) when the CLI
     * has no login of its own and reaches its model with the key the provider gives.
     *
     * @return the login command, or empty
     */
    default Optional<String> loginCommand() {
        return Optional.empty();
    }

    /**
     * How many rate-limited answers in a row (HTTP 429 on model requests, with no successful
     * model answer between) a metered run of this CLI may take before harness-core stops it and
     * ends it {@link Outcome#RATE_LIMITED}, with the retry time the endpoint sent; {@code 0} (the
     * default) never stops it, leaving retries to the CLI. For a CLI that keeps retrying a rate
     * limit on its own schedule, for longer than the endpoint's {@code Retry-After} asks, so that
     * a caller would wait many minutes for an answer the wire already gave. A runner's own setting overrides
     * it; runs without the meter are never stopped this way.
     *
     * @return the number of 429s in a row that stops a run, or 0 for never
     */
    default int stopAfterRateLimits() {
        return 0;
    }

    /**
     * How many model requests in a row failing on the way (HTTP 5xx, the endpoint unreachable, the
     * stream reset or timed out, with no successful model answer between) a metered run of this CLI
     * may take before harness-core stops it and ends it {@link Outcome#TRANSIENT}; {@code 0} (the
     * default) for the runner's own limit (5). For a CLI that does not retry such a failure and then
     * waits silently, so that the run would otherwise end only at the inactivity limit, as a
     * timeout. A runner's own setting overrides it; runs without the meter are never stopped this way.
     *
     * @return the number of failed model requests in a row that stops a run, or 0 for the runner's limit
     */
    default int stopAfterEndpointFailures() {
        return 0;
    }

    /**
     * The run's trajectory as the CLI's own events tell it: one agent step per model turn with
     * its tool calls and their results (harness-core writes the run's prompt as the first, user,
     * step; an adapter returns user steps only for further user messages). Pure: reads only the execution's files,
     * lazily (the stream is closed by the caller, so a 10,000-step run need not be held in
     * memory). Empty when the CLI gives no structured events (the default); harness-core then
     * builds the trajectory from the wire.
     *
     * @param execution what the process did
     * @return the steps in order, or empty when this adapter cannot tell them
     */
    default Optional<Stream<TrajectoryStep>> trajectory(Execution execution) {
        return Optional.empty();
    }
}
