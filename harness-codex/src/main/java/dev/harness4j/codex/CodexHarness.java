package dev.harness4j.codex;

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
 * Runs OpenAI's Codex CLI ({@code @openai/codex}) headless: {@code codex exec --json}, with a
 * per-run {@code CODEX_HOME}, reading outcome, tokens, the answering model and the summary from its
 * events and its log.
 *
 * <h2>Invocation</h2>
 * <pre>
 * codex exec --json --color never --ephemeral --skip-git-repo-check
 *     --dangerously-bypass-approvals-and-sandbox --model &lt;model&gt; --cd &lt;workspace&gt; -
 * </pre>
 * The prompt goes through stdin ({@code -}). {@code CODEX_HOME} is {@code
 * <scratch>/codex/home}: Codex keeps its config, state databases, bundled skills and helper
 * links there, never in the user's {@code ~/.codex}. Its {@code config.toml} declares one provider
 * at the run's endpoint ({@code wire_api = "responses"}, the key named by {@code env_key} and
 * passed as a secret variable), selects it and the run's model, and turns off approvals, Codex's
 * own sandbox (the run is already isolated; Landlock is often unavailable in containers), the
 * update check, analytics, feedback and history. Codex refuses to create its helper links under
 * {@code /tmp} and goes on without them (a warning on stderr); with the default state dir the
 * scratch dir is not under {@code /tmp}. The run's system prompt becomes {@code
 * developer_instructions}; Codex has no max-turns setting. Only an endpoint that serves the OpenAI
 * API is accepted: Codex speaks the Responses API ({@code POST /v1/responses}) only.
 *
 * <p>There is no login probe: {@code codex login status} reads only {@code
 * $CODEX_HOME/auth.json}, which a per-run home never holds, so it would say "Not logged in" for
 * a run whose key travels through {@code env_key}.
 *
 * <h2>What is measured</h2>
 * <ul>
 *   <li>outcome: exit code and git changes (completed / no-op / error), refined by {@code
 *       turn.failed}: a context-window message is context-overflow; an HTTP status in the message
 *       or the log classifies it (429 rate-limited, 401/403 auth, 5xx transient, other 4xx
 *       bad-request); a dropped stream or connection is transient. Codex itself retries a failed
 *       request up to five times ({@code Reconnecting... n/5} error events) before the turn fails.
 *   <li>retry-at: from the last 429 response's {@code retry-after-ms} or {@code retry-after},
 *       which Codex logs to stderr at {@code codex_http_client::client=debug}.
 *   <li>tokens: the sum over {@code turn.completed.usage}; {@code input} excludes {@code
 *       cached_input_tokens} (OpenAI's {@code input_tokens} include them), {@code output} includes
 *       reasoning. Unmeasured when no turn completed.
 *   <li>cost: unmeasured; Codex prints none.
 *   <li>served model: the {@code response.model} of the Responses API events, which Codex logs to
 *       stderr at {@code codex_api::sse::responses=trace} (its JSON events name no model).
 *   <li>summary: the last {@code agent_message} item.
 * </ul>
 */
public final class CodexHarness implements Harness {
    /** This adapter's id. */
    public static final String ID = "codex";

    /** The pinned release. */
    public static final String VERSION = "0.169.0";

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
        return new InstallInfo("codex", List.of("--version"), "npm i -g @openai/codex@" + VERSION);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Refuses the CLI's own login (runs use a private {@code CODEX_HOME}) and a provider that
     * does not serve {@link dev.harness4j.api.ApiStyle#OPENAI} (Codex speaks the Responses API).
     * {@link #prepare} refuses the same providers with the same text.
     */
    @Override
    public Optional<String> unsupported(ResolvedProvider provider) {
        return CodexConfig.unsupported(provider);
    }

    /**
     * {@inheritDoc}
     *
     * @throws dev.harness4j.api.HarnessException when the provider does not serve the OpenAI API
     */
    @Override
    public Invocation prepare(HarnessContext context) {
        return CodexInvocations.of(context);
    }

    @Override
    public HarnessResult interpret(Execution execution) {
        return CodexResults.interpret(execution);
    }

    /**
     * True: the run's MCP servers go to {@code [mcp_servers.<name>]} tables of the per-run {@code
     * config.toml} in its private {@code CODEX_HOME}.
     */
    @Override
    public boolean supportsMcp() {
        return true;
    }

    /**
     * True: a run reports its thread id ({@code thread.started}), and a follow-up run continues it
     * with {@code codex exec resume <id>} in the same per-run {@code CODEX_HOME}; a run kept for a
     * follow-up saves its session (no {@code --ephemeral}).
     */
    @Override
    public boolean supportsFollowUp() {
        return true;
    }

    /** The steps from the {@code --json} events ({@link CodexTrajectory}). */
    @Override
    public Optional<Stream<TrajectoryStep>> trajectory(Execution execution) {
        return Optional.of(CodexTrajectory.of(execution));
    }
}
