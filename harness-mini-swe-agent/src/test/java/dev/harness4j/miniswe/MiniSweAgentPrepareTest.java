package dev.harness4j.miniswe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessException;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.Limits;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.Secret;
import java.net.URI;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@link MiniSweAgentHarness#prepare}: pure translation of a context into argv, env and files. */
class MiniSweAgentPrepareTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String KEY = "sk-test-secret-value";
    private static final Path WORKSPACE = Path.of("/state/runs/r1/workspace");
    private static final Path SCRATCH = Path.of("/state/runs/r1/scratch");
    private static final String PROMPT = "Fix the \"bug\" in main.c\n{{ not a template }}";

    private final MiniSweAgentHarness harness = new MiniSweAgentHarness();

    private static ResolvedProvider provider(Set<ApiStyle> styles, Secret secret) {
        return new ResolvedProvider("gw", EnumSet.copyOf(styles), URI.create("http://127.0.0.1:9999/"), secret,
                AuthScheme.BEARER, "qwen3-coder");
    }

    private static HarnessContext.Builder context(Secret secret) {
        return HarnessContext.builder().runId("r1").prompt(PROMPT).provider(provider(Set.of(ApiStyle.OPENAI), secret))
                .workspace(WORKSPACE).scratchDir(SCRATCH).executable("/tools/mini-swe-agent");
    }

    private static JsonNode runConfig(Invocation inv) throws Exception {
        return JSON.readTree(inv.files().get(MiniSweAgentInvocations.RUN_CONFIG_FILE));
    }

    @Test
    void argvRunsTheHarness4jDefaultAgentLocallyOnTheRequestedModelWithTheRunConfigAndTrajectory() {
        Invocation inv = harness.prepare(context(Secret.of(KEY)).build());

        assertThat(inv.command()).containsExactly("/tools/mini-swe-agent",
                "--agent-class", "harness4j_mini_agent.Harness4jAgent", "--environment-class", "local",
                "--model", "openai/qwen3-coder", "-c", "mini.yaml",
                "-c", SCRATCH.resolve("mini-swe-agent/run.yaml").toString(),
                "-o", SCRATCH.resolve("mini-swe-agent/trajectory.json").toString(), "--yolo", "--exit-immediately");
        assertThat(inv.workingDir()).isEqualTo(WORKSPACE);
        assertThat(String.join(" ", inv.command())).doesNotContain("bug");
        assertThat(inv.stdinText()).isEmpty();
    }

    @Test
    void runConfigCarriesTheVerbatimTaskTheEndpointAndTheWorkspaceButNoKey() throws Exception {
        Invocation inv = harness.prepare(context(Secret.of(KEY)).build());
        JsonNode c = runConfig(inv);

        assertThat(c.path("run").path("task").asText()).isEqualTo(PROMPT);
        assertThat(c.path("model").path("model_name").asText()).isEqualTo("openai/qwen3-coder");
        assertThat(c.path("model").path("model_kwargs").path("api_base").asText()).isEqualTo("http://127.0.0.1:9999/v1");
        assertThat(c.path("environment").path("cwd").asText()).isEqualTo(WORKSPACE.toString());
        assertThat(c.path("agent").path("step_limit").asInt()).isZero();
        assertThat(c.path("agent").has("cost_limit")).isFalse();
        assertThat(c.path("agent").has("system_template")).isFalse();
        assertThat(inv.files().values()).allSatisfy(text -> assertThat(text).doesNotContain(KEY));
        assertThat(inv.environment()).containsEntry("OPENAI_API_KEY", KEY);
        assertThat(inv.secretEnvironment()).containsExactly("OPENAI_API_KEY");
    }

    @Test
    void configStateAndTheAgentModuleLiveInTheScratchDir() {
        Invocation inv = harness.prepare(context(Secret.of(KEY)).build());

        assertThat(inv.environment())
                .containsEntry("MSWEA_GLOBAL_CONFIG_DIR", SCRATCH.resolve("mini-swe-agent/config").toString())
                .containsEntry("MSWEA_CONFIGURED", "true")
                .containsEntry("MSWEA_COST_TRACKING", "ignore_errors")
                .containsEntry("MSWEA_MODEL_RETRY_STOP_AFTER_ATTEMPT", "3")
                .containsEntry("LITELLM_LOCAL_MODEL_COST_MAP", "True")
                .containsEntry("PYTHONPATH", SCRATCH.resolve("mini-swe-agent/python").toString());
        assertThat(inv.files()).containsOnlyKeys("mini-swe-agent/run.yaml", "mini-swe-agent/python/harness4j_mini_agent.py");
        assertThat(inv.files().get("mini-swe-agent/python/harness4j_mini_agent.py"))
                .contains("class Harness4jAgent(DefaultAgent):", "harness4j_response_headers");
    }

    @Test
    void strayKeysConfigPathsAndPythonVariablesAreRemoved() {
        Invocation inv = harness.prepare(context(Secret.of(KEY)).build());

        assertThat(inv.removes("OPENAI_API_BASE")).isTrue();
        assertThat(inv.removes("ANTHROPIC_API_KEY")).isTrue();
        assertThat(inv.removes("MSWEA_MODEL_NAME")).isTrue();
        assertThat(inv.removes("MSWEA_MINI_CONFIG_PATH")).isTrue();
        assertThat(inv.removes("LITELLM_LOG")).isTrue();
        assertThat(inv.removes("PYTHONPATH")).isTrue();
        assertThat(inv.removes("HOME")).isFalse();
        assertThat(inv.removes("PATH")).isFalse();
    }

    @Test
    void maxTurnsCostLimitAttemptsAndSystemPromptReachTheConfig() throws Exception {
        Invocation inv = harness.prepare(context(null).limits(Limits.NONE.withMaxTurns(12))
                .option(MiniSweAgentHarness.OPTION_COST_LIMIT, "0.5")
                .option(MiniSweAgentHarness.OPTION_MODEL_ATTEMPTS, "1")
                .systemPrompt("Always write {{ tests }}.").build());
        JsonNode agent = runConfig(inv).path("agent");

        assertThat(agent.path("step_limit").asInt()).isEqualTo(12);
        assertThat(agent.path("cost_limit").decimalValue()).isEqualByComparingTo("0.5");
        assertThat(agent.path("system_template").asText()).isEqualTo(
                "You are a helpful assistant that can interact with a computer.\n\n{% raw %}Always write {{ tests }}.{% endraw %}");
        assertThat(inv.environment()).containsEntry("MSWEA_MODEL_RETRY_STOP_AFTER_ATTEMPT", "1")
                .containsEntry("OPENAI_API_KEY", MiniSweAgentInvocations.NO_KEY_PLACEHOLDER);
    }

    @Test
    void malformedOptionsAndEndpointsLiteLlmCannotReachAreRefusedBeforeAnythingStarts() {
        HarnessContext badCost = context(null).option(MiniSweAgentHarness.OPTION_COST_LIMIT, "cheap").build();
        HarnessContext badAttempts = context(null).option(MiniSweAgentHarness.OPTION_MODEL_ATTEMPTS, "0").build();
        ResolvedProvider ollama = provider(Set.of(ApiStyle.OLLAMA), Secret.of(KEY));
        ResolvedProvider login = ResolvedProvider.cliLogin("subscription", "m");

        assertThatThrownBy(() -> harness.prepare(badCost)).isInstanceOf(HarnessException.class)
                .hasMessageContaining("cost-limit").hasMessageContaining("cheap");
        assertThatThrownBy(() -> harness.prepare(badAttempts)).isInstanceOf(HarnessException.class)
                .hasMessageContaining("model-attempts");
        assertThat(harness.unsupported(ollama)).hasValueSatisfying(why -> assertThat(why)
                .contains("provider 'gw'", "[OLLAMA]", "OpenAI", "Anthropic", "Gemini").doesNotContain(KEY));
        assertThatThrownBy(() -> harness.prepare(context(null).provider(ollama).build()))
                .isInstanceOf(HarnessException.class).hasMessage(harness.unsupported(ollama).orElseThrow());
        assertThat(harness.unsupported(login)).hasValueSatisfying(why -> assertThat(why).contains("own login"));
        assertThatThrownBy(() -> harness.prepare(context(null).provider(login).build()))
                .hasMessage(harness.unsupported(login).orElseThrow());
    }

    @Test
    void anAnthropicOnlyEndpointGetsLiteLlmsAnthropicRouteOnItsRoot() throws Exception {
        ResolvedProvider p = new ResolvedProvider("gw", EnumSet.of(ApiStyle.ANTHROPIC, ApiStyle.GEMINI),
                URI.create("http://127.0.0.1:9999/v1"), Secret.of(KEY), AuthScheme.API_KEY, "claude-x");
        Invocation inv = harness.prepare(context(null).provider(p).build());
        JsonNode model = runConfig(inv).path("model");

        assertThat(inv.command()).containsSubsequence("--model", "anthropic/claude-x");
        assertThat(model.path("model_name").asText()).isEqualTo("anthropic/claude-x");
        assertThat(model.path("model_kwargs").path("api_base").asText()).isEqualTo("http://127.0.0.1:9999");
        assertThat(inv.environment()).containsEntry("ANTHROPIC_API_KEY", KEY).doesNotContainKey("OPENAI_API_KEY");
        assertThat(inv.secretEnvironment()).containsExactly("ANTHROPIC_API_KEY");
        assertThat(inv.files().values()).noneMatch(c -> c.contains(KEY));
    }

    @Test
    void aBearerKeyOnTheAnthropicRouteGoesInAnthropicAuthToken() {
        Invocation inv = harness.prepare(context(null).provider(provider(Set.of(ApiStyle.ANTHROPIC), Secret.of(KEY))).build());

        assertThat(inv.environment()).containsEntry("ANTHROPIC_AUTH_TOKEN", KEY).doesNotContainKey("ANTHROPIC_API_KEY");
        assertThat(inv.secretEnvironment()).containsExactly("ANTHROPIC_AUTH_TOKEN");
    }

    @Test
    void aGeminiOnlyEndpointGetsLiteLlmsGeminiRouteOnItsV1betaUrl() throws Exception {
        Invocation inv = harness.prepare(context(null).provider(provider(Set.of(ApiStyle.GEMINI), null)).build());
        JsonNode model = runConfig(inv).path("model");

        assertThat(model.path("model_name").asText()).isEqualTo("gemini/qwen3-coder");
        assertThat(model.path("model_kwargs").path("api_base").asText()).isEqualTo("http://127.0.0.1:9999/v1beta");
        assertThat(inv.environment()).as("LiteLLM wants a Gemini key even for a keyless endpoint")
                .containsEntry("GEMINI_API_KEY", MiniSweAgentInvocations.NO_KEY_PLACEHOLDER);
        assertThat(inv.removes("GOOGLE_API_KEY")).as("LiteLLM prefers it to GEMINI_API_KEY").isTrue();
    }

    @Test
    void openAiChatIsPreferredWhenServedThenAnthropicThenGemini() {
        assertThat(LiteLlmRoute.of(provider(Set.of(ApiStyle.GEMINI, ApiStyle.ANTHROPIC, ApiStyle.OPENAI), null)))
                .contains(LiteLlmRoute.OPENAI);
        assertThat(LiteLlmRoute.of(provider(Set.of(ApiStyle.GEMINI, ApiStyle.ANTHROPIC), null)))
                .contains(LiteLlmRoute.ANTHROPIC);
        assertThat(LiteLlmRoute.of(provider(Set.of(ApiStyle.GEMINI, ApiStyle.OLLAMA), null))).contains(LiteLlmRoute.GEMINI);
    }
}
