package dev.harness4j.opencode;

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

/** {@link OpencodeHarness#prepare}: pure translation of a context into argv, env and config file. */
class OpencodePrepareTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String KEY = "sk-test-secret-value";
    private static final Path WORKSPACE = Path.of("/state/runs/r1/workspace");
    private static final Path SCRATCH = Path.of("/state/runs/r1/scratch");

    private final OpencodeHarness harness = new OpencodeHarness();

    private static ResolvedProvider provider(Set<ApiStyle> styles, Secret secret, AuthScheme auth) {
        return new ResolvedProvider("gw", EnumSet.copyOf(styles), URI.create("http://127.0.0.1:9999/"), secret, auth,
                "qwen3-coder");
    }

    private static HarnessContext.Builder context(ResolvedProvider provider) {
        return HarnessContext.builder().runId("r1").prompt("Fix the \"bug\" in main.c").provider(provider)
                .workspace(WORKSPACE).scratchDir(SCRATCH).executable("/tools/opencode");
    }

    private static HarnessContext openai() {
        return context(provider(Set.of(ApiStyle.OPENAI), Secret.of(KEY), AuthScheme.API_KEY)).build();
    }

    private static JsonNode config(Invocation inv) throws Exception {
        return JSON.readTree(inv.files().get(OpencodeInvocations.CONFIG_FILE));
    }

    @Test
    void argvRunsHeadlessWithJsonEventsModelDirTitleAndSkippedPermissions() {
        Invocation inv = harness.prepare(openai());

        assertThat(inv.command()).containsExactly("/tools/opencode", "run", "--format", "json",
                "--model", "harness4j/qwen3-coder", "--dir", WORKSPACE.toString(), "--title", "harness4j r1",
                "--dangerously-skip-permissions");
        assertThat(inv.workingDir()).isEqualTo(WORKSPACE);
    }

    @Test
    void promptTravelsVerbatimThroughStdinNotArgv() {
        Invocation inv = harness.prepare(openai());

        assertThat(inv.stdin()).isEqualTo("Fix the \"bug\" in main.c");
        assertThat(String.join(" ", inv.command())).doesNotContain("bug");
    }

    @Test
    void configPointsOneOpenAiCompatibleProviderAtTheV1UrlWithoutTheKeyInTheFile() throws Exception {
        Invocation inv = harness.prepare(openai());
        JsonNode c = config(inv);

        JsonNode p = c.path("provider").path("harness4j");
        assertThat(p.path("npm").asText()).isEqualTo("@ai-sdk/openai-compatible");
        assertThat(p.path("options").path("baseURL").asText()).isEqualTo("http://127.0.0.1:9999/v1");
        assertThat(p.path("options").path("apiKey").asText()).isEqualTo("{env:HARNESS4J_OPENCODE_API_KEY}");
        assertThat(p.path("models").path("qwen3-coder").path("name").asText()).isEqualTo("qwen3-coder");
        assertThat(p.path("models").path("qwen3-coder").has("cost")).isFalse();
        assertThat(c.path("autoupdate").asBoolean(true)).isFalse();
        assertThat(c.path("share").asText()).isEqualTo("disabled");
        assertThat(c.path("permission").path("edit").asText()).isEqualTo("allow");
        assertThat(c.path("permission").path("bash").asText()).isEqualTo("allow");
        assertThat(c.path("enabled_providers")).extracting(JsonNode::asText).containsExactly("harness4j");
        assertThat(inv.files().values()).allSatisfy(text -> assertThat(text).doesNotContain(KEY));
        assertThat(inv.environment()).containsEntry("HARNESS4J_OPENCODE_API_KEY", KEY);
        assertThat(inv.secretEnvironment()).containsExactly("HARNESS4J_OPENCODE_API_KEY");
        assertThat(inv.secretValues()).containsExactly(KEY);
    }

    @Test
    void theGlobalConfigDirShowsThePluginSdkInstalledAndNpmStaysInTheScratchDirOffline() throws Exception {
        Invocation inv = harness.prepare(openai());
        String dir = OpencodeInvocations.GLOBAL_CONFIG_DIR;

        // opencode installs @opencode-ai/plugin into a config dir unless node_modules exists and
        // package-lock.json's root lists every dependency name package.json lists
        assertThat(inv.files()).containsKeys(dir + "/package.json", dir + "/package-lock.json")
                .anySatisfy((path, text) -> assertThat(path).startsWith(dir + "/node_modules/"));
        assertThat(JSON.readTree(inv.files().get(dir + "/package.json")).path("dependencies").has("@opencode-ai/plugin"))
                .isTrue();
        assertThat(JSON.readTree(inv.files().get(dir + "/package-lock.json")).path("packages").path("")
                .path("dependencies").has("@opencode-ai/plugin")).isTrue();
        assertThat(inv.environment().get("XDG_CONFIG_HOME") + "/opencode")
                .isEqualTo(SCRATCH.resolve(dir).toString());
        assertThat(inv.environment()).containsEntry("npm_config_cache",
                SCRATCH.resolve(OpencodeInvocations.NPM_CACHE_DIR).toString()).containsEntry("npm_config_offline", "true");
    }

    @Test
    void configAndStateLiveInTheScratchDirNeverInTheWorkspace() {
        Invocation inv = harness.prepare(openai());

        assertThat(inv.environment())
                .containsEntry("OPENCODE_CONFIG", SCRATCH.resolve("opencode/opencode.json").toString())
                .containsEntry("XDG_CONFIG_HOME", SCRATCH.resolve("opencode/xdg/config").toString())
                .containsEntry("XDG_DATA_HOME", SCRATCH.resolve("opencode/xdg/data").toString())
                .containsEntry("XDG_CACHE_HOME", SCRATCH.resolve("opencode/xdg/cache").toString())
                .containsEntry("XDG_STATE_HOME", SCRATCH.resolve("opencode/xdg/state").toString())
                .containsEntry("OPENCODE_DISABLE_MODELS_FETCH", "1")
                .containsEntry("PWD", WORKSPACE.toString());
        assertThat(inv.files()).allSatisfy((rel, text) -> assertThat(Path.of(rel).isAbsolute()).isFalse());
        assertThat(inv.environment().values()).noneMatch(v -> v.startsWith(WORKSPACE + "/"));
    }

    @Test
    void strayAnthropicOpenAiAndOpencodeVariablesAreRemoved() {
        Invocation inv = harness.prepare(openai());

        assertThat(inv.removes("ANTHROPIC_API_KEY")).isTrue();
        assertThat(inv.removes("ANTHROPIC_BASE_URL")).isTrue();
        assertThat(inv.removes("OPENAI_API_KEY")).isTrue();
        assertThat(inv.removes("OPENCODE_CONFIG_DIR")).isTrue();
        assertThat(inv.removes("XDG_CONFIG_HOME")).isTrue();
        assertThat(inv.removes("PATH")).isFalse();
        assertThat(inv.removes("HOME")).isFalse();
    }

    @Test
    void endpointWithoutKeyGetsNoApiKeyAndNoSecret() throws Exception {
        Invocation inv = harness.prepare(context(provider(Set.of(ApiStyle.OPENAI), null, AuthScheme.API_KEY)).build());

        assertThat(config(inv).path("provider").path("harness4j").path("options").has("apiKey")).isFalse();
        assertThat(inv.secretEnvironment()).isEmpty();
        assertThat(inv.environment()).doesNotContainKey("HARNESS4J_OPENCODE_API_KEY");
    }

    @Test
    void anthropicOnlyEndpointUsesTheBundledAnthropicPackageWithXApiKey() throws Exception {
        Invocation inv = harness.prepare(
                context(provider(Set.of(ApiStyle.ANTHROPIC), Secret.of(KEY), AuthScheme.API_KEY)).build());
        JsonNode p = config(inv).path("provider").path("harness4j");

        assertThat(p.path("npm").asText()).isEqualTo("@ai-sdk/anthropic");
        assertThat(p.path("options").path("baseURL").asText()).isEqualTo("http://127.0.0.1:9999/v1");
        assertThat(p.path("options").path("apiKey").asText()).isEqualTo("{env:HARNESS4J_OPENCODE_API_KEY}");
        assertThat(p.path("options").has("authToken")).isFalse();
    }

    @Test
    void anthropicOnlyBearerEndpointSendsTheKeyAsAuthToken() throws Exception {
        Invocation inv = harness.prepare(
                context(provider(Set.of(ApiStyle.ANTHROPIC), Secret.of(KEY), AuthScheme.BEARER)).build());
        JsonNode options = config(inv).path("provider").path("harness4j").path("options");

        assertThat(options.path("authToken").asText()).isEqualTo("{env:HARNESS4J_OPENCODE_API_KEY}");
        assertThat(options.has("apiKey")).isFalse();
    }

    @Test
    void endpointServingBothStylesIsUsedThroughOpenAiCompatible() throws Exception {
        Invocation inv = harness.prepare(
                context(provider(Set.of(ApiStyle.ANTHROPIC, ApiStyle.OPENAI), Secret.of(KEY), AuthScheme.API_KEY)).build());

        assertThat(config(inv).path("provider").path("harness4j").path("npm").asText())
                .isEqualTo("@ai-sdk/openai-compatible");
    }

    @Test
    void ollamaOnlyEndpointIsRefusedWithTheReasonAndTheFix() {
        HarnessContext ctx = context(provider(Set.of(ApiStyle.OLLAMA), null, AuthScheme.API_KEY)).build();

        assertThatThrownBy(() -> harness.prepare(ctx)).isInstanceOf(HarnessException.class)
                .hasMessageContaining("provider 'gw'").hasMessageContaining("OLLAMA")
                .hasMessageContaining("OpenAI-compatible API");
    }

    @Test
    void priceOptionsPriceTheModelInTheConfig() throws Exception {
        Invocation inv = harness.prepare(context(provider(Set.of(ApiStyle.OPENAI), Secret.of(KEY), AuthScheme.API_KEY))
                .option(OpencodeHarness.OPTION_PRICE_INPUT, "3").option(OpencodeHarness.OPTION_PRICE_OUTPUT, "15.5")
                .option(OpencodeHarness.OPTION_PRICE_CACHE_READ, "0.3").build());
        JsonNode cost = config(inv).path("provider").path("harness4j").path("models").path("qwen3-coder").path("cost");

        assertThat(cost.path("input").decimalValue()).isEqualByComparingTo("3");
        assertThat(cost.path("output").decimalValue()).isEqualByComparingTo("15.5");
        assertThat(cost.path("cache_read").decimalValue()).isEqualByComparingTo("0.3");
        assertThat(cost.has("cache_write")).isFalse();
    }

    @Test
    void malformedOrHalfPriceOptionsAreRefusedBeforeAnythingStarts() {
        HarnessContext notANumber = context(provider(Set.of(ApiStyle.OPENAI), null, AuthScheme.API_KEY))
                .option(OpencodeHarness.OPTION_PRICE_INPUT, "cheap").option(OpencodeHarness.OPTION_PRICE_OUTPUT, "1")
                .build();
        HarnessContext onlyInput = context(provider(Set.of(ApiStyle.OPENAI), null, AuthScheme.API_KEY))
                .option(OpencodeHarness.OPTION_PRICE_INPUT, "1").build();

        assertThatThrownBy(() -> harness.prepare(notANumber)).isInstanceOf(HarnessException.class)
                .hasMessageContaining("price-input").hasMessageContaining("cheap");
        assertThatThrownBy(() -> harness.prepare(onlyInput)).isInstanceOf(HarnessException.class)
                .hasMessageContaining("price-output");
    }

    @Test
    void maxTurnsAndSystemPromptGoIntoTheConfig() throws Exception {
        Invocation inv = harness.prepare(context(provider(Set.of(ApiStyle.OPENAI), null, AuthScheme.API_KEY))
                .limits(Limits.NONE.withMaxTurns(12)).systemPrompt("Always write tests.").build());
        JsonNode c = config(inv);

        assertThat(c.path("agent").path("build").path("steps").asInt()).isEqualTo(12);
        assertThat(c.path("instructions")).extracting(JsonNode::asText)
                .containsExactly(SCRATCH.resolve("opencode/system-prompt.md").toString());
        assertThat(inv.files()).containsEntry("opencode/system-prompt.md", "Always write tests.");
    }

    @Test
    void withoutSystemPromptOrMaxTurnsTheConfigHasNeither() throws Exception {
        JsonNode c = config(harness.prepare(openai()));

        assertThat(c.has("instructions")).isFalse();
        assertThat(c.has("agent")).isFalse();
    }

    @Test
    void mcpServersGoToTheConfigsMcpAsLocalAndRemoteServers() throws Exception {
        Invocation inv = harness.prepare(context(provider(Set.of(ApiStyle.OPENAI), Secret.of(KEY), AuthScheme.API_KEY))
                .mcpServers(java.util.List.of(
                        dev.harness4j.api.McpServer.stdio("tickets", "/opt/t/bin/t", "--ro").withEnv("T_URL", "http://x"),
                        dev.harness4j.api.McpServer.http("web", URI.create("http://127.0.0.1:9/mcp"))))
                .build());
        JsonNode mcp = config(inv).path("mcp");

        JsonNode t = mcp.path("tickets");
        assertThat(t.path("type").asText()).isEqualTo("local");
        assertThat(t.path("command").toString()).isEqualTo("[\"/opt/t/bin/t\",\"--ro\"]");
        assertThat(t.path("environment").path("T_URL").asText()).isEqualTo("http://x");
        assertThat(t.path("enabled").asBoolean()).isTrue();
        assertThat(mcp.path("web").path("type").asText()).isEqualTo("remote");
        assertThat(mcp.path("web").path("url").asText()).isEqualTo("http://127.0.0.1:9/mcp");
        assertThat(config(harness.prepare(openai())).has("mcp")).isFalse();
    }
}
