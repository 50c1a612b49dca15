package dev.harness4j.miniswe;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessException;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.ResolvedProvider;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Translates a run context into the {@code mini} invocation: argv, the per-run config and agent
 * files, and the environment. Pure: no I/O. Package-private; {@link MiniSweAgentHarness} is the
 * public face.
 */
final class MiniSweAgentInvocations {
    /** Everything mini-swe-agent reads or writes for a run lives below this dir of the scratch dir. */
    static final String HOME_DIR = "mini-swe-agent";

    /** Its global config dir ({@code MSWEA_GLOBAL_CONFIG_DIR}), relative to the scratch dir. */
    static final String CONFIG_DIR = HOME_DIR + "/config";

    /** The run's config (task, limits, model, working dir), relative to the scratch dir; JSON, which YAML reads. */
    static final String RUN_CONFIG_FILE = HOME_DIR + "/run.yaml";

    /** The trajectory file mini-swe-agent writes after every step, relative to the scratch dir. */
    static final String TRAJECTORY_FILE = HOME_DIR + "/trajectory.json";

    /** The dir put on {@code PYTHONPATH}, holding the agent class, relative to the scratch dir. */
    static final String PYTHON_DIR = HOME_DIR + "/python";

    /** The agent module, relative to the scratch dir. */
    static final String AGENT_FILE = PYTHON_DIR + "/harness4j_mini_agent.py";

    /** The agent class mini-swe-agent is told to use. */
    static final String AGENT_CLASS = "harness4j_mini_agent.Harness4jAgent";

    /** The model tried this often per step when the endpoint fails (mini-swe-agent's default is 10). */
    static final int DEFAULT_MODEL_ATTEMPTS = 3;

    /** The key given to LiteLLM when the endpoint needs none: the OpenAI client refuses to start without one. */
    static final String NO_KEY_PLACEHOLDER = "harness4j-no-key";

    /** mini.yaml's own system message; the run's system prompt is appended to it. */
    static final String MINI_SYSTEM_TEMPLATE = "You are a helpful assistant that can interact with a computer.\n";

    /**
     * The non-interactive agent: mini-swe-agent's {@code DefaultAgent}, which also records the
     * failing response's HTTP status and headers in the trajectory's exit message (mini-swe-agent
     * keeps only the exception's text, which says nothing of when a rate limit resets).
     */
    static final String AGENT_SOURCE = """
            \"\"\"harness4j's agent for mini-swe-agent: DefaultAgent (non-interactive), plus the failing
            response's HTTP status and headers in the exit message of the trajectory.\"\"\"
            import time

            from minisweagent.agents.default import DefaultAgent


            class Harness4jAgent(DefaultAgent):
                def handle_uncaught_exception(self, e):
                    messages = super().handle_uncaught_exception(e)
                    extra = self.messages[-1].setdefault("extra", {})
                    extra["harness4j_failed_at"] = time.time()
                    status = getattr(e, "status_code", None)
                    if isinstance(status, int):
                        extra["harness4j_status_code"] = status
                    headers = getattr(e, "litellm_response_headers", None) or getattr(
                        getattr(e, "response", None), "headers", None)
                    if headers is not None:
                        try:
                            extra["harness4j_response_headers"] = {str(k).lower(): str(v) for k, v in headers.items()}
                        except Exception:
                            pass
                    return messages
            """;

    /**
     * Inherited variables removed before the run's own are set: {@code OPENAI_*}, {@code
     * ANTHROPIC_*}, {@code GEMINI_*}, {@code GOOGLE_API_KEY} (which LiteLLM prefers to {@code
     * GEMINI_API_KEY}), {@code LITELLM_*} and {@code MSWEA_*} (a stray key, base URL, model or
     * config path must not redirect the run), and the {@code PYTHON*} variables that change what
     * Python loads.
     */
    static final String[] REMOVED_ENVIRONMENT = {
        "OPENAI_*", "ANTHROPIC_*", "GEMINI_*", "GOOGLE_API_KEY", "LITELLM_*", "MSWEA_*", "PYTHONPATH", "PYTHONHOME",
        "PYTHONSTARTUP", "PYTHONUSERBASE", "VIRTUAL_ENV"
    };

    private static final ObjectMapper JSON = new ObjectMapper();

    private MiniSweAgentInvocations() {}

    static Invocation of(HarnessContext context) {
        ResolvedProvider provider = context.provider();
        LiteLlmRoute.unsupported(provider).ifPresent(why -> {
            throw new HarnessException(why);
        });
        LiteLlmRoute route = LiteLlmRoute.of(provider).orElseThrow();
        Path workspace = context.workspace().toAbsolutePath().normalize();
        Path scratch = context.scratchDir().toAbsolutePath().normalize();

        Invocation.Builder b = Invocation.builder(context.executable(),
                "--agent-class", AGENT_CLASS,
                "--environment-class", "local",
                "--model", route.model(context.model()),
                // mini.yaml (the bundled config) first, then the run's: they are merged in order
                "-c", "mini.yaml",
                "-c", scratch.resolve(RUN_CONFIG_FILE).toString(),
                "-o", scratch.resolve(TRAJECTORY_FILE).toString(),
                "--yolo",
                "--exit-immediately");
        // the task travels in the run config file: mini reads no prompt from stdin without a
        // terminal, and an argv prompt is visible to the agent's own pkill -f
        b.workingDir(workspace);
        b.file(RUN_CONFIG_FILE, runConfig(context, route, workspace));
        b.file(AGENT_FILE, AGENT_SOURCE);
        for (String name : REMOVED_ENVIRONMENT) {
            b.removeEnv(name);
        }
        b.env("MSWEA_GLOBAL_CONFIG_DIR", scratch.resolve(CONFIG_DIR).toString())
                .env("MSWEA_CONFIGURED", "true")
                .env("MSWEA_COST_TRACKING", "ignore_errors")
                .env("MSWEA_MODEL_RETRY_STOP_AFTER_ATTEMPT", Integer.toString(attempts(context)))
                .env("LITELLM_LOCAL_MODEL_COST_MAP", "True")
                .env("PYTHONPATH", scratch.resolve(PYTHON_DIR).toString())
                .env("PYTHONUNBUFFERED", "1")
                .env("PYTHONDONTWRITEBYTECODE", "1")
                .env("NO_COLOR", "1")
                .env("PWD", workspace.toString());
        b.secretEnv(route.keyEnv(provider), provider.secret() != null ? provider.secret().reveal() : NO_KEY_PLACEHOLDER);
        return b.build();
    }

    /** The run config: task, agent limits, model endpoint and the working dir. No key. */
    static String runConfig(HarnessContext context, LiteLlmRoute route, Path workspace) {
        ObjectNode root = JSON.createObjectNode();
        root.putObject("run").put("task", context.prompt());
        ObjectNode agent = root.putObject("agent");
        agent.put("step_limit", context.limits().maxTurns() != null ? context.limits().maxTurns() : 0);
        costLimit(context).ifPresent(c -> agent.put("cost_limit", c));
        if (context.systemPrompt() != null && !context.systemPrompt().isBlank()) {
            agent.put("system_template", MINI_SYSTEM_TEMPLATE + "\n" + raw(context.systemPrompt()));
        }
        ObjectNode model = root.putObject("model");
        model.put("model_name", route.model(context.model()));
        ObjectNode kwargs = model.putObject("model_kwargs");
        kwargs.put("api_base", route.apiBase(context.provider()));
        kwargs.put("drop_params", true);
        model.put("cost_tracking", "ignore_errors");
        root.putObject("environment").put("cwd", workspace.toString());
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new HarnessException("mini-swe-agent: could not render the run config for run " + context.runId(), e);
        }
    }

    /** Text kept out of Jinja's reach: mini-swe-agent renders its templates with Jinja. */
    static String raw(String text) {
        return "{% raw %}" + text.replace("{% endraw %}", "{% endraw %}{{ '{% endraw %}' }}{% raw %}") + "{% endraw %}";
    }

    static int attempts(HarnessContext context) {
        Optional<String> raw = context.option(MiniSweAgentHarness.OPTION_MODEL_ATTEMPTS);
        if (raw.isEmpty()) {
            return DEFAULT_MODEL_ATTEMPTS;
        }
        try {
            int n = Integer.parseInt(raw.get().trim());
            if (n < 1) {
                throw new NumberFormatException("below 1");
            }
            return n;
        } catch (NumberFormatException e) {
            throw new HarnessException("mini-swe-agent: option " + MiniSweAgentHarness.OPTION_MODEL_ATTEMPTS
                    + " must be a whole number >= 1, was '" + raw.get() + "'; fix the run spec's options", e);
        }
    }

    static Optional<BigDecimal> costLimit(HarnessContext context) {
        Optional<String> raw = context.option(MiniSweAgentHarness.OPTION_COST_LIMIT);
        if (raw.isEmpty()) {
            return Optional.empty();
        }
        try {
            BigDecimal v = new BigDecimal(raw.get().trim());
            if (v.signum() < 0) {
                throw new NumberFormatException("negative");
            }
            return Optional.of(v);
        } catch (NumberFormatException e) {
            throw new HarnessException("mini-swe-agent: option " + MiniSweAgentHarness.OPTION_COST_LIMIT
                    + " must be an amount in USD >= 0 (0 disables the limit), was '" + raw.get()
                    + "'; fix the run spec's options", e);
        }
    }
}
