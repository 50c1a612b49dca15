package dev.harness4j.gemini;

import dev.harness4j.api.CompletionMode;
import dev.harness4j.api.Execution;
import dev.harness4j.api.Harness;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.InstallInfo;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.TrajectoryStep;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs Google's Gemini CLI ({@code @google/gemini-cli}) headless with JSON events, a per-run
 * {@code GEMINI_CLI_HOME}, and reads outcome, tokens, the answering models and the summary from
 * its events.
 *
 * <h2>Invocation</h2>
 * <pre>
 * gemini --output-format stream-json --model &lt;model&gt; --approval-mode yolo   (prompt on stdin)
 * </pre>
 * With stdin not a terminal Gemini CLI runs non-interactively and takes the prompt from stdin.
 * {@code GEMINI_CLI_HOME} is {@code <scratch>/gemini/home}: the CLI keeps its settings, project
 * registry, chat logs and temp files in {@code .gemini/} below it, never in the user's {@code
 * ~/.gemini}. Its {@code settings.json} ({@link GeminiSettings}) selects API-key auth and the run's
 * model and turns off usage statistics, telemetry, update checks, IDE integration, folder trust,
 * checkpointing, the sandbox and the {@code .env} lookup from the workspace up ({@code
 * advanced.ignoreLocalEnv}). The same file is passed as system settings ({@code
 * GEMINI_CLI_SYSTEM_SETTINGS_PATH}), which win over a task repo's {@code .gemini/settings.json}
 * but which Gemini CLI reads only below a root-owned path no group or other may write (else it
 * skips them, and this adapter logs a warning once); {@code GEMINI_TELEMETRY_ENABLED=false}
 * holds either way. The endpoint goes in {@code GOOGLE_GEMINI_BASE_URL} (the
 * provider's root URL; the CLI appends {@code /v1beta/models/...}), the key in {@code
 * GEMINI_API_KEY} (sent as {@code x-goog-api-key}; {@code none} for an endpoint without a key, as
 * the CLI refuses API-key auth without one); {@code TMPDIR} points into the scratch dir,
 * where the CLI writes its error reports. The run's system prompt becomes the global context
 * file {@code GEMINI.md} (added to Gemini CLI's own system prompt, not replacing it); the run's
 * max turns becomes {@code model.maxSessionTurns}. Only an endpoint that serves {@link
 * dev.harness4j.api.ApiStyle#GEMINI} is accepted.
 *
 * <p>Options: {@code max_attempts} (1..10, default 3): the attempts per model request, with the
 * CLI's backoff between them.
 *
 * <p>There is no login probe and no login command: Gemini CLI's Google login is interactive
 * (a browser flow), and a per-run home would never see it.
 *
 * <h2>What is measured</h2>
 * <ul>
 *   <li>outcome: exit code and git changes (completed / no-op / error), refined by the {@code
 *       result} event's error: a context-window message is context-overflow; the HTTP status of
 *       the last failed request (its "failed with status 429" line or Google's error JSON on
 *       stderr; the CLI exits with that status too) classifies it (429 rate-limited, 401/403
 *       auth, 5xx transient, other 4xx bad-request); a dropped stream ("terminated", "other side
 *       closed", "fetch failed") is transient.
 *   <li>retry-at: from a wait the error text names ("retry in 30s"); the meter adds the 429
 *       response's {@code retry-after} or {@code RetryInfo} when the CLI names none.
 *   <li>tokens: from the {@code result} event's {@code stats}: input = {@code input} (uncached),
 *       cache read = {@code cached}, output = {@code total_tokens - input_tokens} (candidates
 *       plus thinking; its {@code output_tokens} leave thinking out). Unmeasured when no model
 *       call was answered.
 *   <li>cost: unmeasured; Gemini CLI prints none.
 *   <li>served model: the keys of {@code stats.models} that carry tokens (the CLI keys them by
 *       the responses' {@code modelVersion}).
 *   <li>summary: the assistant text after the last tool call.
 * </ul>
 */
public final class GeminiHarness implements Harness {
    /** This adapter's id. */
    public static final String ID = "gemini";

    /** The pinned release. */
    public static final String VERSION = "0.61.0";

    private static final Logger LOG = LoggerFactory.getLogger(GeminiHarness.class);

    private final AtomicBoolean warnedSystemSettings = new AtomicBoolean();

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
        return new InstallInfo("gemini", List.of("--version"), "npm i -g @google/gemini-cli@" + VERSION
                + " (or scripts/install-clis.sh, whose wrapper answers --version without touching ~/.gemini)");
    }

    /**
     * {@inheritDoc}
     *
     * <p>Refuses the CLI's own login (runs use a private {@code GEMINI_CLI_HOME}) and a provider
     * that does not serve {@link dev.harness4j.api.ApiStyle#GEMINI}. {@link #prepare} refuses the
     * same providers with the same text.
     */
    @Override
    public Optional<String> unsupported(ResolvedProvider provider) {
        return GeminiSettings.unsupported(provider);
    }

    /**
     * {@inheritDoc}
     *
     * @throws dev.harness4j.api.HarnessException when the provider does not serve the Gemini API,
     *     or the {@code max_attempts} option is not 1..10
     */
    @Override
    public Invocation prepare(HarnessContext context) {
        Invocation invocation = GeminiInvocations.of(context);
        Path system = context.scratchDir().resolve(GeminiInvocations.SYSTEM_SETTINGS_FILE);
        GeminiSystemSettings.skipReason(system).ifPresent(why -> {
            if (warnedSystemSettings.compareAndSet(false, true)) {
                LOG.warn("gemini: Gemini CLI will skip the run's system settings {}: {}. Its user settings still turn "
                        + "telemetry and usage statistics off, but a task repo's .gemini/settings.json can turn them "
                        + "back on. Use a state dir owned by root and not group/world-writable (when running as root), "
                        + "or the sandbox (network to the meter only), for repos you do not trust", system, why);
            }
        });
        return invocation;
    }

    @Override
    public HarnessResult interpret(Execution execution) {
        return GeminiResults.interpret(execution);
    }

    /** The steps from the {@code stream-json} events ({@link GeminiTrajectory}). */
    @Override
    public Optional<Stream<TrajectoryStep>> trajectory(Execution execution) {
        return Optional.of(GeminiTrajectory.of(execution));
    }

    /**
     * True: the run's MCP servers go to {@code mcpServers} of the per-run settings (user and
     * system), trusted, with {@code mcp.allowed} naming only them.
     */
    @Override
    public boolean supportsMcp() {
        return true;
    }

    /**
     * True: a run reports its session id (the {@code init} event's), and a follow-up run continues
     * it with {@code --resume <id>} in the same per-run {@code GEMINI_CLI_HOME}, where Gemini CLI
     * records its chats.
     */
    @Override
    public boolean supportsFollowUp() {
        return true;
    }
}
