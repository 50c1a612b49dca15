package dev.harness4j.copilot;

import dev.harness4j.api.CompletionMode;
import dev.harness4j.api.Execution;
import dev.harness4j.api.Harness;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.InstallInfo;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.TrajectoryStep;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Runs GitHub Copilot CLI ({@code @github/copilot}) headless in BYOK mode, with no GitHub login,
 * a per-run {@code COPILOT_HOME} and {@code HOME}, reading outcome, the summary and the session id
 * from its JSONL events.
 *
 * <h2>Invocation</h2>
 * <pre>
 * copilot -p &lt;prompt&gt; --yolo --no-ask-user --output-format json --no-auto-update
 *     --disable-builtin-mcps --model &lt;model&gt; [--resume=&lt;id&gt;] [--additional-mcp-config @&lt;file&gt;]
 * </pre>
 * The endpoint goes in {@code COPILOT_PROVIDER_BASE_URL} with {@code COPILOT_PROVIDER_TYPE} {@code
 * openai} (chat completions on {@code <endpoint>/v1}) when the provider serves {@link
 * dev.harness4j.api.ApiStyle#OPENAI}, else {@code anthropic} (Messages on the root URL); the key
 * in {@code COPILOT_PROVIDER_API_KEY} (environment only), the model in {@code COPILOT_MODEL}.
 * {@code COPILOT_OFFLINE=true} turns off GitHub auth, telemetry, web tools, the GitHub MCP server
 * and the update check (no network but the endpoint). {@code COPILOT_HOME} is {@code
 * <scratch>/copilot/home} (config, session state, logs), {@code HOME} is {@code
 * <scratch>/copilot/user-home} (the npm loader extracts its assets to {@code ~/.cache/copilot}),
 * {@code TMPDIR} is {@code <scratch>/copilot/tmp}; {@code GIT_CONFIG_GLOBAL} keeps the user's git
 * identity for the agent's git. The run's system prompt is put before the prompt. Copilot CLI is
 * proprietary: it is installed from npm ({@code scripts/install-clis.sh}), never redistributed.
 *
 * <p>There is no login probe and no login command: runs are BYOK and offline, a GitHub login in a
 * per-run home would never be seen.
 *
 * <h2>What is measured</h2>
 * <ul>
 *   <li>outcome: exit code and git changes (completed / no-op / error), refined by the {@code
 *       session.error} event: a context-window message, its {@code statusCode} (429
 *       rate-limited, 401/403 auth, 5xx transient, other 4xx bad-request), a dropped connection
 *       (transient).
 *   <li>rate limits: the runner stops a metered run at the first 429 ({@link #stopAfterRateLimits()}),
 *       with the wire's retry time; an unmetered run's {@code session.error} 429 is rate-limited.
 *   <li>tokens, cost, served model: unmeasured here (the JSONL prints no token counts in BYOK
 *       mode); the meter measures tokens and the answering model.
 *   <li>summary: the last assistant text.
 * </ul>
 */
public final class CopilotHarness implements Harness {
    /** This adapter's id. */
    public static final String ID = "copilot";

    /** The pinned release. */
    public static final String VERSION = "1.0.102";

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
        return new InstallInfo("copilot", List.of("--version"), "npm i -g @github/copilot@" + VERSION
                + " (proprietary licence; or scripts/install-clis.sh, whose wrapper answers --version without "
                + "extracting assets into ~/.cache/copilot)");
    }

    /**
     * One: Copilot CLI 1.0.102 honours a 429's {@code Retry-After} in full before each of its up to
     * five attempts (measured: {@code retry_after_ms: 90000} in its log, then silence), so a caller
     * would wait that long again and again for the answer the wire already gave. The runner stops
     * the run at the first 429, and it ends {@code rate-limited} with the retry time the meter read
     * from the wire.
     */
    @Override
    public int stopAfterRateLimits() {
        return 1;
    }

    /**
     * {@inheritDoc}
     *
     * <p>Refuses the CLI's own login (runs are BYOK and offline) and a provider that serves
     * neither {@link dev.harness4j.api.ApiStyle#OPENAI} nor {@link dev.harness4j.api.ApiStyle#ANTHROPIC}.
     * {@link #prepare} refuses the same providers with the same text.
     */
    @Override
    public Optional<String> unsupported(ResolvedProvider provider) {
        return CopilotInvocations.unsupported(provider);
    }

    /**
     * {@inheritDoc}
     *
     * @throws dev.harness4j.api.HarnessException when the provider serves neither OpenAI nor Anthropic
     */
    @Override
    public Invocation prepare(HarnessContext context) {
        return CopilotInvocations.of(context);
    }

    @Override
    public HarnessResult interpret(Execution execution) {
        return CopilotResults.interpret(execution);
    }

    /** The steps from the JSONL events ({@link CopilotTrajectory}). */
    @Override
    public Optional<Stream<TrajectoryStep>> trajectory(Execution execution) {
        return Optional.of(CopilotTrajectory.of(execution));
    }

    /**
     * True: the run's MCP servers (stdio as {@code local}, HTTP as {@code http}, every tool allowed)
     * go to a per-run file passed with {@code --additional-mcp-config @file}.
     */
    @Override
    public boolean supportsMcp() {
        return true;
    }

    /**
     * True: a run reports its session id (the {@code result} event's {@code sessionId}), and a
     * follow-up run continues it with {@code --resume=<id>} in the same per-run {@code COPILOT_HOME}.
     */
    @Override
    public boolean supportsFollowUp() {
        return true;
    }
}
