package dev.harness4j.qwen;

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
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@link QwenHarness#prepare}: pure translation of a context into argv, env and settings file. */
class QwenPrepareTest {
    private static final String KEY = "sk-test-secret-value";
    private static final Path WORKSPACE = Path.of("/state/runs/r1/workspace");
    private static final Path SCRATCH = Path.of("/state/runs/r1/scratch");

    private final QwenHarness harness = new QwenHarness();

    private static ResolvedProvider provider(Set<ApiStyle> styles, Secret secret) {
        return new ResolvedProvider("gw", EnumSet.copyOf(styles), URI.create("http://127.0.0.1:9999/"), secret,
                AuthScheme.BEARER, "qwen3-coder-plus");
    }

    private static HarnessContext.Builder context(ResolvedProvider provider) {
        return HarnessContext.builder().runId("r1").prompt("Fix the \"bug\" in main.c\nthen stop").provider(provider)
                .workspace(WORKSPACE).scratchDir(SCRATCH).executable("/tools/qwen");
    }

    private Invocation openai() {
        return harness.prepare(context(provider(Set.of(ApiStyle.OPENAI), Secret.of(KEY))).build());
    }

    @Test
    void argvRunsHeadlessStreamJsonYoloOnTheRequestedModelAndEndpointWithThePromptFromStdin() {
        Invocation inv = openai();

        assertThat(inv.command()).containsExactly("/tools/qwen", "--output-format", "stream-json", "--yolo",
                "--auth-type", "openai", "--model", "qwen3-coder-plus", "--openai-base-url", "http://127.0.0.1:9999/v1",
                "--chat-recording", "false");
        assertThat(inv.workingDir()).isEqualTo(WORKSPACE);
        assertThat(inv.stdin()).isEqualTo("Fix the \"bug\" in main.c\nthen stop");
        assertThat(String.join(" ", inv.command())).doesNotContain("bug").doesNotContain(KEY);
    }

    @Test
    void maxTurnsAndTheSystemPromptBecomeFlags() {
        Invocation inv = harness.prepare(context(provider(Set.of(ApiStyle.OPENAI), null))
                .limits(new Limits(Duration.ofMinutes(1), Duration.ofMinutes(5), 7)).systemPrompt("Be \"brief\"\nnow")
                .build());

        assertThat(inv.command()).containsSequence("--max-session-turns", "7")
                .containsSequence("--append-system-prompt", "Be \"brief\"\nnow");
    }

    @Test
    void systemSettingsTurnOffStatisticsTelemetryUpdatesRecordingAndMemoryAndHoldNoKey() throws Exception {
        Invocation inv = openai();

        assertThat(inv.files()).containsOnlyKeys("qwen/system-settings.json", "qwen/user-home/.keep", "qwen/tmp/.keep");
        String text = inv.files().get(QwenInvocations.SETTINGS_FILE);
        assertThat(text).doesNotContain(KEY);
        JsonNode s = new ObjectMapper().readTree(text);
        assertThat(s.at("/privacy/usageStatisticsEnabled").asBoolean(true)).isFalse();
        assertThat(s.at("/telemetry/enabled").asBoolean(true)).isFalse();
        assertThat(s.at("/general/enableAutoUpdate").asBoolean(true)).isFalse();
        assertThat(s.at("/general/chatRecording").asBoolean(true)).isFalse();
        assertThat(s.at("/memory/enableManagedAutoMemory").asBoolean(true)).isFalse();
        assertThat(s.at("/model/name").asText()).isEqualTo("qwen3-coder-plus");
        assertThat(s.at("/security/auth/selectedType").asText()).isEqualTo("openai");
        assertThat(inv.environment()).containsEntry("QWEN_HOME", SCRATCH.resolve("qwen/home").toString())
                .containsEntry("OPENAI_API_KEY", KEY).containsEntry("PWD", WORKSPACE.toString());
        assertThat(inv.secretEnvironment()).containsExactly("OPENAI_API_KEY");
    }

    @Test
    void strayOpenAiQwenAndDashscopeVariablesAreRemoved() {
        Invocation inv = openai();

        assertThat(inv.removes("OPENAI_BASE_URL")).isTrue();
        assertThat(inv.removes("OPENAI_MODEL")).isTrue();
        assertThat(inv.removes("QWEN_HOME")).isTrue();
        assertThat(inv.removes("QWEN_RUNTIME_DIR")).isTrue();
        assertThat(inv.removes("DASHSCOPE_API_KEY")).isTrue();
        assertThat(inv.removes("PATH")).isFalse();
        assertThat(inv.removes("HOME")).as("replaced, not removed").isFalse();
    }

    @Test
    void homeTmpdirSystemSettingsEndpointAndModelArePinnedToTheRun() {
        Invocation inv = openai();

        assertThat(inv.environment())
                .containsEntry("HOME", SCRATCH.resolve("qwen/user-home").toString())
                .containsEntry("TMPDIR", SCRATCH.resolve("qwen/tmp").toString())
                .containsEntry("QWEN_CODE_SYSTEM_SETTINGS_PATH", SCRATCH.resolve("qwen/system-settings.json").toString())
                .containsEntry("OPENAI_BASE_URL", "http://127.0.0.1:9999/v1")
                .containsEntry("OPENAI_MODEL", "qwen3-coder-plus");
        assertThat(inv.files()).containsKeys("qwen/user-home/.keep", "qwen/tmp/.keep", "qwen/system-settings.json");
        assertThat(inv.removes("TMPDIR")).isTrue();
    }

    @Test
    void endpointWithoutKeyGetsAPlaceholderNoDotEnvFileCanReplace() {
        Invocation inv = harness.prepare(context(provider(Set.of(ApiStyle.OPENAI), null)).build());

        assertThat(inv.secretEnvironment()).isEmpty();
        assertThat(inv.environment()).containsEntry("OPENAI_API_KEY", "none");
    }

    @Test
    void anthropicOnlyEndpointAndTheCliLoginAreRefusedWithTheReasonAndTheFix() {
        HarnessContext anthropic = context(provider(Set.of(ApiStyle.ANTHROPIC), null)).build();
        assertThatThrownBy(() -> harness.prepare(anthropic)).isInstanceOf(HarnessException.class)
                .hasMessageContaining("provider 'gw'").hasMessageContaining("ANTHROPIC")
                .hasMessageContaining("chat completions");
        HarnessContext login = context(ResolvedProvider.cliLogin("qwen-login", "qwen3-coder-plus")).build();
        assertThatThrownBy(() -> harness.prepare(login)).isInstanceOf(HarnessException.class)
                .hasMessageContaining("base_url");
    }

    @Test
    void theAgentsGitKeepsTheUsersGlobalConfigWhenHomeMovesToScratch() {
        ResolvedProvider p = provider(Set.of(ApiStyle.OPENAI), Secret.of(KEY));
        Invocation moved = harness.prepare(context(p).environment(Map.of("HOME", "/home/u")).build());
        Invocation kept = harness.prepare(context(p)
                .environment(Map.of("HOME", "/home/u", "GIT_CONFIG_GLOBAL", "/etc/my-git")).build());

        assertThat(moved.environment()).containsEntry("GIT_CONFIG_GLOBAL", "/home/u/.gitconfig");
        assertThat(kept.environment()).as("the user's own choice is inherited").doesNotContainKey("GIT_CONFIG_GLOBAL");
    }

    @Test
    void mcpServersGoToTheSystemSettingsTrustedLoadedUpFrontAndAreTheOnlyOnesAllowed() throws Exception {
        Invocation inv = harness.prepare(context(provider(Set.of(ApiStyle.OPENAI), Secret.of(KEY)))
                .mcpServers(java.util.List.of(
                        dev.harness4j.api.McpServer.stdio("tickets", "/opt/t/bin/t", "--ro").withEnv("T_URL", "http://x"),
                        dev.harness4j.api.McpServer.http("web", java.net.URI.create("http://127.0.0.1:9/mcp"))))
                .build());
        var json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(inv.files().get(QwenInvocations.SETTINGS_FILE));

        var t = json.path("mcpServers").path("tickets");
        assertThat(t.path("command").asText()).isEqualTo("/opt/t/bin/t");
        assertThat(t.path("args").get(0).asText()).isEqualTo("--ro");
        assertThat(t.path("env").path("T_URL").asText()).isEqualTo("http://x");
        assertThat(t.path("trust").asBoolean()).isTrue();
        assertThat(t.path("alwaysLoadTools").asBoolean()).isTrue();
        assertThat(json.path("mcpServers").path("web").path("httpUrl").asText()).isEqualTo("http://127.0.0.1:9/mcp");
        assertThat(json.path("mcp").path("allowed").toString()).isEqualTo("[\"tickets\",\"web\"]");
        assertThat(openai().files().get(QwenInvocations.SETTINGS_FILE)).doesNotContain("mcpServers");
    }
}
