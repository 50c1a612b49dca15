package dev.harness4j.miniswe;

import dev.harness4j.api.CompletionMode;
import dev.harness4j.api.Execution;
import dev.harness4j.api.Harness;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.InstallInfo;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.ResolvedProvider;
import java.util.List;
import java.util.Optional;

/**
 * Runs mini-swe-agent ({@code mini-swe-agent} on PyPI) headless: its non-interactive {@code
 * DefaultAgent} on the local environment, in a per-run config dir, with outcome, tokens, cost and
 * the answering model read from its trajectory file.
 *
 * <h2>Invocation</h2>
 * <pre>
 * mini-swe-agent --agent-class harness4j_mini_agent.Harness4jAgent --environment-class local
 *     --model &lt;route&gt;/&lt;model&gt; -c mini.yaml -c &lt;scratch&gt;/mini-swe-agent/run.yaml
 *     -o &lt;scratch&gt;/mini-swe-agent/trajectory.json --yolo --exit-immediately
 * </pre>
 * {@code run.yaml} (JSON, which YAML reads) holds the task (so the prompt is in neither argv nor
 * a terminal prompt), {@code agent.step_limit} (the run's max turns, else none), {@code
 * agent.cost_limit} ({@value #OPTION_COST_LIMIT}, else mini.yaml's), the model's {@code
 * api_base} and the workspace as the environment's working dir; the run's system prompt is
 * appended to mini.yaml's system message. The route is LiteLLM's for the provider's API style
 * ({@link LiteLlmRoute}): {@code openai/} to the endpoint's {@code /v1} when it serves OpenAI
 * chat, else {@code anthropic/} to its root, else {@code gemini/} to its {@code /v1beta}. The key
 * travels in the route's variable ({@code OPENAI_API_KEY}, {@code ANTHROPIC_API_KEY} or {@code
 * ANTHROPIC_AUTH_TOKEN}, {@code GEMINI_API_KEY}; secret). The agent class is mini-swe-agent's
 * {@code DefaultAgent} plus one thing: on the exception that ends a run it records the failing
 * response's HTTP status and headers in the trajectory (for a rate limit's reset time). {@code
 * MSWEA_GLOBAL_CONFIG_DIR} is per run (mini-swe-agent creates it at import), {@code
 * MSWEA_CONFIGURED=true} skips its first-run setup prompt, {@code LITELLM_LOCAL_MODEL_COST_MAP}
 * stops LiteLLM fetching its price map, and cost-tracking errors for unpriced models are ignored.
 * mini-swe-agent tries a failing model call {@value MiniSweAgentInvocations#DEFAULT_MODEL_ATTEMPTS}
 * times here (its default is 10, with backoff up to a minute), each through the OpenAI client,
 * which retries twice itself; {@value #OPTION_MODEL_ATTEMPTS} changes it.
 *
 * <p>The executable is {@code mini-swe-agent} (the package's own entry point, the same as {@code
 * mini}); {@code scripts/install-clis.sh} puts a wrapper of that name in the tools dir that
 * answers {@code --version} without importing the package (an import creates the global config
 * dir in HOME).
 *
 * <h2>What is measured</h2>
 * <ul>
 *   <li>outcome: {@code info.exit_status}: {@code Submitted} (or no trajectory) by exit code and
 *       git (completed / no-op / error); {@code LimitsExceeded} max-turns when the step limit was
 *       reached, else budget; {@code TimeExceeded} timeout; {@code RepeatedFormatError} error;
 *       an exception by LiteLLM's class: {@code RateLimitError} rate-limited (with the reset
 *       time), {@code AuthenticationError}/{@code PermissionDeniedError} auth, {@code
 *       ContextWindowExceededError} (or context-window wording) context-overflow, connection
 *       errors, timeouts and 5xx transient ({@code InternalServerError} is also what LiteLLM
 *       calls a dropped connection), other 4xx bad-request.
 *   <li>tokens: the sum over the answers' {@code usage}; {@code input} excludes the cached
 *       prompt tokens. Unmeasured when no answer arrived.
 *   <li>cost: {@code info.model_stats.instance_cost} when positive (LiteLLM's bundled prices for
 *       the model id, a CLI estimate); absent for unpriced models.
 *   <li>served model: each answer's {@code response.model}.
 *   <li>summary: the last assistant text.
 * </ul>
 */
public final class MiniSweAgentHarness implements Harness {
    /** This adapter's id. */
    public static final String ID = "mini-swe-agent";

    /** The pinned release. */
    public static final String VERSION = "2.4.6";

    /** Option: the cost limit in USD ({@code agent.cost_limit}; 0 disables it). */
    public static final String OPTION_COST_LIMIT = "cost-limit";

    /** Option: how often a failing model call is tried ({@code MSWEA_MODEL_RETRY_STOP_AFTER_ATTEMPT}). */
    public static final String OPTION_MODEL_ATTEMPTS = "model-attempts";

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
        return new InstallInfo("mini-swe-agent", List.of("--version"),
                "pip install mini-swe-agent==" + VERSION + " (in its own virtualenv)");
    }

    /**
     * {@inheritDoc}
     *
     * <p>Refuses the CLI's own login (mini-swe-agent has none) and a provider that serves none of
     * OpenAI chat, Anthropic and Gemini. {@link #prepare} refuses the same providers with the same
     * text.
     */
    @Override
    public Optional<String> unsupported(ResolvedProvider provider) {
        return LiteLlmRoute.unsupported(provider);
    }

    /**
     * False: mini-swe-agent 2.4 has no MCP client (bash is its only tool), so the runner refuses a
     * run with MCP servers before anything is written.
     */
    @Override
    public boolean supportsMcp() {
        return false;
    }

    /**
     * {@inheritDoc}
     *
     * @throws dev.harness4j.api.HarnessException when the provider cannot be served ({@link
     *     #unsupported}), or an option is malformed
     */
    @Override
    public Invocation prepare(HarnessContext context) {
        return MiniSweAgentInvocations.of(context);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Besides the output, reads the trajectory file mini-swe-agent wrote in the run's scratch dir.
     */
    @Override
    public HarnessResult interpret(Execution execution) {
        return MiniSweAgentResults.interpret(execution);
    }
}
