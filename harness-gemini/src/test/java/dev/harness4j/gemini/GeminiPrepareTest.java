package dev.harness4j.gemini;

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
import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@link GeminiHarness#prepare}: pure translation of a context into argv, env and settings file. */
class GeminiPrepareTest {
    private static final String KEY = "AIza-test-secret-value";
    private static final Path WORKSPACE = Path.of("/state/runs/r1/workspace");
    private static final Path SCRATCH = Path.of("/state/runs/r1/scratch");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final GeminiHarness harness = new GeminiHarness();

    private static ResolvedProvider provider(Set<ApiStyle> styles, Secret secret) {
        return new ResolvedProvider("google", EnumSet.copyOf(styles), URI.create("http://127.0.0.1:9999/v1/"), secret,
                AuthScheme.API_KEY, "gemini-2.5-pro");
    }

    private static HarnessContext.Builder context(ResolvedProvider provider) {
        return HarnessContext.builder().runId("r1").prompt("Fix the \"bug\" in main.c\nthen stop").provider(provider)
                .workspace(WORKSPACE).scratchDir(SCRATCH).executable("/tools/gemini");
    }

    private Invocation gemini() {
        return harness.prepare(context(provider(Set.of(ApiStyle.GEMINI), Secret.of(KEY))).build());
    }

    private static JsonNode settings(Invocation inv) throws Exception {
        return JSON.readTree(inv.files().get(GeminiInvocations.SETTINGS_FILE));
    }

    @Test
    void argvAsksForStreamJsonTheRequestedModelAndYoloWithThePromptOnStdin() {
        Invocation inv = gemini();

        assertThat(inv.command()).containsExactly("/tools/gemini", "--output-format", "stream-json",
                "--model", "gemini-2.5-pro", "--approval-mode", "yolo");
        assertThat(inv.workingDir()).isEqualTo(WORKSPACE);
        assertThat(inv.stdin()).isEqualTo("Fix the \"bug\" in main.c\nthen stop");
    }

    @Test
    void theEndpointIsTheRootUrlAndTheKeyASecretVariableNeverInTheSettings() {
        Invocation inv = gemini();

        assertThat(inv.environment()).containsEntry("GOOGLE_GEMINI_BASE_URL", "http://127.0.0.1:9999")
                .containsEntry("GEMINI_API_KEY", KEY);
        assertThat(inv.secretEnvironment()).containsExactly("GEMINI_API_KEY");
        assertThat(inv.files().values()).noneMatch(v -> v.contains(KEY));
    }

    @Test
    void homeSettingsAndTempDirLiveInTheScratchDir() {
        Invocation inv = gemini();

        assertThat(inv.environment())
                .containsEntry("GEMINI_CLI_HOME", SCRATCH.resolve("gemini/home").toString())
                .containsEntry("TMPDIR", SCRATCH.resolve("gemini/tmp").toString())
                .containsEntry("PWD", WORKSPACE.toString());
        assertThat(inv.environment()).doesNotContainKey("HOME");
        assertThat(inv.files()).containsOnlyKeys("gemini/home/.gemini/settings.json", "gemini/system-settings.json",
                "gemini/tmp/.keep");
    }

    @Test
    void systemSettingsRepeatTheUserSettingsAndTelemetryIsPinnedByEnvironment() {
        Invocation inv = gemini();

        assertThat(inv.files().get("gemini/system-settings.json"))
                .isEqualTo(inv.files().get(GeminiInvocations.SETTINGS_FILE));
        assertThat(inv.environment())
                .containsEntry("GEMINI_CLI_SYSTEM_SETTINGS_PATH", SCRATCH.resolve("gemini/system-settings.json").toString())
                .containsEntry("GEMINI_TELEMETRY_ENABLED", "false")
                .containsEntry("GEMINI_TELEMETRY_LOG_PROMPTS", "false");
    }

    @Test
    void settingsSelectApiKeyAuthAndTheModelAndTurnOffEverythingThatPhonesHome() throws Exception {
        JsonNode s = settings(gemini());

        assertThat(s.at("/security/auth/selectedType").asText()).isEqualTo("gemini-api-key");
        assertThat(s.at("/model/name").asText()).isEqualTo("gemini-2.5-pro");
        assertThat(s.at("/model/maxSessionTurns").isMissingNode()).isTrue();
        assertThat(s.at("/privacy/usageStatisticsEnabled").asBoolean(true)).isFalse();
        assertThat(s.at("/telemetry/enabled").asBoolean(true)).isFalse();
        assertThat(s.at("/general/enableAutoUpdate").asBoolean(true)).isFalse();
        assertThat(s.at("/general/enableAutoUpdateNotification").asBoolean(true)).isFalse();
        assertThat(s.at("/ide/enabled").asBoolean(true)).isFalse();
        assertThat(s.at("/security/folderTrust/enabled").asBoolean(true)).isFalse();
        assertThat(s.at("/general/checkpointing/enabled").asBoolean(true)).isFalse();
        assertThat(s.at("/tools/sandbox").asBoolean(true)).isFalse();
        assertThat(s.at("/advanced/ignoreLocalEnv").asBoolean(false)).isTrue();
        assertThat(s.at("/general/maxAttempts").asInt()).isEqualTo(GeminiSettings.DEFAULT_MAX_ATTEMPTS);
    }

    @Test
    void maxTurnsAndMaxAttemptsReachTheSettings() throws Exception {
        Invocation inv = harness.prepare(context(provider(Set.of(ApiStyle.GEMINI), null))
                .limits(new Limits(Duration.ofSeconds(60), null, 7)).option("max_attempts", "1").build());

        assertThat(settings(inv).at("/model/maxSessionTurns").asInt()).isEqualTo(7);
        assertThat(settings(inv).at("/general/maxAttempts").asInt()).isEqualTo(1);
    }

    @Test
    void aBadMaxAttemptsIsRefusedWithTheFix() {
        HarnessContext ctx = context(provider(Set.of(ApiStyle.GEMINI), null)).option("max_attempts", "11").build();

        assertThatThrownBy(() -> harness.prepare(ctx)).isInstanceOf(HarnessException.class)
                .hasMessageContaining("max_attempts=11").hasMessageContaining("1 to 10");
    }

    @Test
    void strayGeminiAndGoogleVariablesAreRemoved() {
        Invocation inv = gemini();

        assertThat(inv.removes("GEMINI_API_KEY")).isTrue();
        assertThat(inv.removes("GEMINI_MODEL")).isTrue();
        assertThat(inv.removes("GOOGLE_API_KEY")).isTrue();
        assertThat(inv.removes("GOOGLE_GENAI_USE_VERTEXAI")).isTrue();
        assertThat(inv.removes("GOOGLE_APPLICATION_CREDENTIALS")).isTrue();
        assertThat(inv.removes("CLOUD_SHELL")).isTrue();
        assertThat(inv.removes("TMPDIR")).isTrue();
        assertThat(inv.removes("PATH")).isFalse();
        assertThat(inv.removes("HOME")).isFalse();
    }

    @Test
    void endpointWithoutKeyGetsAPlaceholderAndNoSecret() {
        Invocation inv = harness.prepare(context(provider(Set.of(ApiStyle.GEMINI), null)).build());

        assertThat(inv.environment()).containsEntry("GEMINI_API_KEY", "none");
        assertThat(inv.secretEnvironment()).isEmpty();
    }

    @Test
    void systemPromptBecomesTheGlobalContextFile() {
        Invocation inv = harness.prepare(context(provider(Set.of(ApiStyle.GEMINI), null))
                .systemPrompt("Always answer in \"French\".\n").build());

        assertThat(inv.files()).containsEntry("gemini/home/.gemini/GEMINI.md", "Always answer in \"French\".\n");
    }

    @Test
    void anEndpointWithoutTheGeminiApiIsRefusedWithTheReasonAndTheFix() {
        HarnessContext ctx = context(provider(Set.of(ApiStyle.ANTHROPIC, ApiStyle.OPENAI), null)).build();

        assertThatThrownBy(() -> harness.prepare(ctx)).isInstanceOf(HarnessException.class)
                .hasMessageContaining("provider 'google'").hasMessageContaining("Gemini API")
                .hasMessageContaining("api_styles");
    }

    @Test
    void theClisOwnLoginIsRefused() {
        HarnessContext ctx = context(ResolvedProvider.cliLogin("google-login", "gemini-2.5-pro")).build();

        assertThatThrownBy(() -> harness.prepare(ctx)).isInstanceOf(HarnessException.class)
                .hasMessageContaining("own login").hasMessageContaining("base_url");
    }

    @Test
    void mcpServersGoToTheSettingsTrustedAndAreTheOnlyOnesAllowed() throws Exception {
        Invocation inv = harness.prepare(context(provider(Set.of(ApiStyle.GEMINI), Secret.of(KEY)))
                .mcpServers(java.util.List.of(
                        dev.harness4j.api.McpServer.stdio("tickets", "/opt/t/bin/t", "--ro").withEnv("T_URL", "http://x"),
                        dev.harness4j.api.McpServer.http("web", URI.create("http://127.0.0.1:9/mcp"))))
                .build());
        JsonNode s = settings(inv);

        JsonNode t = s.path("mcpServers").path("tickets");
        assertThat(t.path("command").asText()).isEqualTo("/opt/t/bin/t");
        assertThat(t.path("args").get(0).asText()).isEqualTo("--ro");
        assertThat(t.path("env").path("T_URL").asText()).isEqualTo("http://x");
        assertThat(t.path("trust").asBoolean()).isTrue();
        assertThat(s.path("mcpServers").path("web").path("httpUrl").asText()).isEqualTo("http://127.0.0.1:9/mcp");
        assertThat(s.path("mcp").path("allowed")).extracting(JsonNode::asText).containsExactly("tickets", "web");
        assertThat(inv.files().get(GeminiInvocations.SYSTEM_SETTINGS_FILE))
                .isEqualTo(inv.files().get(GeminiInvocations.SETTINGS_FILE));
        assertThat(settings(gemini()).has("mcpServers")).isFalse();
    }
}
