package dev.harness4j.claude;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClaudePrepareTest {
    private static final Path WORKSPACE = Path.of("/tmp/h4j/runs/r1/work");
    private static final Path SCRATCH = Path.of("/tmp/h4j/runs/r1/scratch");
    private final ClaudeCodeHarness harness = new ClaudeCodeHarness();

    private static ResolvedProvider scripted(String model) {
        return new ResolvedProvider("scripted", EnumSet.of(ApiStyle.ANTHROPIC, ApiStyle.OPENAI),
                URI.create("http://127.0.0.1:4567"), Secret.of("sk-test"), AuthScheme.API_KEY, model);
    }

    private static ResolvedProvider anthropic(String model) {
        return new ResolvedProvider("anthropic", EnumSet.of(ApiStyle.ANTHROPIC),
                URI.create("https://api.anthropic.com"), Secret.of("sk-ant-real"), AuthScheme.API_KEY, model);
    }

    private static HarnessContext.Builder context(ResolvedProvider provider) {
        return HarnessContext.builder().runId("r1").prompt("Write hello.txt").provider(provider)
                .workspace(WORKSPACE).scratchDir(SCRATCH).executable("/opt/bin/claude");
    }

    @Test
    void runsPrintModeWithJsonOutputTheModelAndThePermissionBypass() {
        Invocation inv = harness.prepare(context(scripted("scripted-a")).build());

        assertThat(inv.command()).containsExactly("/opt/bin/claude", "-p", "--output-format", "stream-json", "--verbose",
                "--model", "scripted-a", "--dangerously-skip-permissions", "--no-session-persistence");
        assertThat(inv.workingDir()).isEqualTo(WORKSPACE);
    }

    @Test
    void givesThePromptOnStdinAndNeverInArgv() {
        Invocation inv = harness.prepare(context(scripted("scripted-a")).prompt("pkill -f me please").build());

        assertThat(inv.stdinText()).contains("pkill -f me please");
        assertThat(String.join(" ", inv.command())).doesNotContain("pkill");
    }

    @Test
    void passesMaxTurnsAndTheAppendedSystemPromptWhenGiven() {
        Invocation inv = harness.prepare(context(scripted("m")).limits(Limits.NONE.withMaxTurns(7))
                .systemPrompt("Be terse.").build());

        assertThat(inv.command()).containsSequence("--max-turns", "7")
                .containsSequence("--append-system-prompt", "Be terse.");
    }

    @Test
    void leavesOutMaxTurnsAndSystemPromptWhenNotGiven() {
        Invocation inv = harness.prepare(context(scripted("m")).build());

        assertThat(inv.command()).doesNotContain("--max-turns", "--append-system-prompt");
    }

    @Test
    void putsTheConfigDirInTheRunsScratchDir() {
        Invocation inv = harness.prepare(context(scripted("m")).build());

        Path configDir = Path.of(inv.environment().get("CLAUDE_CONFIG_DIR"));
        assertThat(configDir).isAbsolute().startsWithRaw(SCRATCH);
        assertThat(configDir.startsWith(WORKSPACE)).isFalse();
        assertThat(inv.removes("CLAUDE_CONFIG_DIR")).isTrue();
        assertThat(inv.environment()).containsEntry("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1");
    }

    @Test
    void aKeylessProviderGetsAPlaceholderKeyThatIsNotMarkedSecret() {
        ResolvedProvider keyless = new ResolvedProvider("local", java.util.EnumSet.of(dev.harness4j.api.ApiStyle.ANTHROPIC),
                java.net.URI.create("http://127.0.0.1:9"), null, dev.harness4j.api.AuthScheme.API_KEY, "m");

        Invocation inv = harness.prepare(context(keyless).build());

        assertThat(inv.environment()).containsEntry("ANTHROPIC_API_KEY", ClaudeInvocations.NO_KEY_PLACEHOLDER);
        assertThat(inv.secretEnvironment()).doesNotContain("ANTHROPIC_API_KEY");
        assertThat(inv.secretValues()).isEmpty();
    }

    @Test
    void setsIsSandboxOnlyWhenRunningAsRoot() {
        assertThat(harness.prepare(context(scripted("m")).runningAsRoot(true).build()).environment())
                .containsEntry("IS_SANDBOX", "1");
        assertThat(harness.prepare(context(scripted("m")).runningAsRoot(false).build()).environment())
                .doesNotContainKey("IS_SANDBOX");
    }

    @Test
    void removesInheritedAnthropicVariablesAndSetsItsOwnEndpointAndKey() {
        Invocation inv = harness.prepare(context(scripted("m"))
                .environment(Map.of("ANTHROPIC_API_KEY", "sk-stray", "ANTHROPIC_BASE_URL", "https://elsewhere",
                        "ANTHROPIC_SMALL_FAST_MODEL", "x", "CLAUDE_CODE_USE_BEDROCK", "1", "CLAUDECODE", "1"))
                .build());

        assertThat(inv.removes("ANTHROPIC_SMALL_FAST_MODEL")).isTrue();
        assertThat(inv.removes("ANTHROPIC_API_KEY")).isTrue();
        assertThat(inv.removes("CLAUDE_CODE_USE_BEDROCK")).isTrue();
        assertThat(inv.removes("CLAUDECODE")).isTrue();
        assertThat(inv.removes("PATH")).isFalse();
        assertThat(inv.environment()).containsEntry("ANTHROPIC_BASE_URL", "http://127.0.0.1:4567")
                .containsEntry("ANTHROPIC_API_KEY", "sk-test")
                .doesNotContainKey("ANTHROPIC_AUTH_TOKEN");
        assertThat(inv.secretEnvironment()).containsExactly("ANTHROPIC_API_KEY");
        assertThat(inv.secretValues()).containsExactly("sk-test");
    }

    @Test
    void sendsTheKeyAsAuthTokenWhenTheProviderUsesBearerAuth() {
        ResolvedProvider bearer = new ResolvedProvider("gw", EnumSet.of(ApiStyle.ANTHROPIC),
                URI.create("http://127.0.0.1:4000/v1/"), Secret.of("tok-1"), AuthScheme.BEARER, "m");

        Invocation inv = harness.prepare(context(bearer).build());

        assertThat(inv.environment()).containsEntry("ANTHROPIC_AUTH_TOKEN", "tok-1")
                .containsEntry("ANTHROPIC_BASE_URL", "http://127.0.0.1:4000")
                .doesNotContainKey("ANTHROPIC_API_KEY");
        assertThat(inv.secretEnvironment()).containsExactly("ANTHROPIC_AUTH_TOKEN");
    }

    @Test
    void mapsEveryModelSlotToTheRunsModelOnACustomEndpoint() {
        Invocation inv = harness.prepare(context(scripted("qwen3-coder")).build());

        for (String name : List.of("ANTHROPIC_MODEL", "ANTHROPIC_DEFAULT_OPUS_MODEL",
                "ANTHROPIC_DEFAULT_SONNET_MODEL", "ANTHROPIC_DEFAULT_HAIKU_MODEL", "CLAUDE_CODE_SUBAGENT_MODEL")) {
            assertThat(inv.environment()).containsEntry(name, "qwen3-coder");
        }
    }

    @Test
    void leavesTheModelSlotsToTheCliOnAnthropicsOwnApi() {
        Invocation inv = harness.prepare(context(anthropic("sonnet")).build());

        assertThat(inv.environment()).doesNotContainKeys("ANTHROPIC_MODEL", "ANTHROPIC_DEFAULT_OPUS_MODEL",
                "ANTHROPIC_DEFAULT_SONNET_MODEL", "ANTHROPIC_DEFAULT_HAIKU_MODEL", "CLAUDE_CODE_SUBAGENT_MODEL");
        assertThat(inv.environment()).containsEntry("ANTHROPIC_BASE_URL", "https://api.anthropic.com");
    }

    @Test
    void setsMaxOutputTokensFromTheOptionOrTheDocumentedDefault() {
        assertThat(harness.prepare(context(scripted("m")).build()).environment())
                .containsEntry("CLAUDE_CODE_MAX_OUTPUT_TOKENS",
                        Integer.toString(ClaudeCodeHarness.DEFAULT_MAX_OUTPUT_TOKENS));
        assertThat(harness.prepare(context(scripted("m")).option("max-output-tokens", "4096").build())
                .environment()).containsEntry("CLAUDE_CODE_MAX_OUTPUT_TOKENS", "4096");
    }

    @Test
    void setsTheCliRetriesOnlyWhenTheOptionIsGiven() {
        assertThat(harness.prepare(context(scripted("m")).build()).environment())
                .doesNotContainKey("CLAUDE_CODE_MAX_RETRIES");
        assertThat(harness.prepare(context(scripted("m")).option("max-retries", "0").build()).environment())
                .containsEntry("CLAUDE_CODE_MAX_RETRIES", "0");
    }

    @Test
    void logsTheApiClientsResponseHeadersUnlessTurnedOff() {
        assertThat(harness.prepare(context(scripted("m")).build()).environment())
                .containsEntry("ANTHROPIC_LOG", "debug");
        assertThat(harness.prepare(context(scripted("m")).option("api-debug-log", "false").build()).environment())
                .doesNotContainKey("ANTHROPIC_LOG");
        assertThatThrownBy(() -> harness.prepare(context(scripted("m")).option("api-debug-log", "yes").build()))
                .isInstanceOf(HarnessException.class).hasMessageContaining("api-debug-log");
    }

    @Test
    void refusesANonNumericMaxOutputTokensNamingTheOption() {
        HarnessContext ctx = context(scripted("m")).option("max-output-tokens", "lots").build();

        assertThatThrownBy(() -> harness.prepare(ctx)).isInstanceOf(HarnessException.class)
                .hasMessageContaining("max-output-tokens").hasMessageContaining("lots");
    }

    @Test
    void refusesAProviderWithoutAnAnthropicStyleApiBeforeAnythingStarts() {
        ResolvedProvider openAiOnly = new ResolvedProvider("openrouter", EnumSet.of(ApiStyle.OPENAI),
                URI.create("http://127.0.0.1:9"), Secret.of("sk-x"), AuthScheme.BEARER, "gpt-x");

        assertThatThrownBy(() -> harness.prepare(context(openAiOnly).build()))
                .isInstanceOf(HarnessException.class)
                .hasMessageContaining("openrouter").hasMessageContaining("ANTHROPIC")
                .hasMessageNotContaining("sk-x");
        assertThatThrownBy(() -> harness.loginProbe(context(openAiOnly).build()))
                .isInstanceOf(HarnessException.class);
    }

    @Test
    void probesTheLoginWithTheRunsConfigDirAndKeyWithoutAModelCall() {
        Invocation probe = harness.loginProbe(context(scripted("m")).runningAsRoot(true).build()).orElseThrow();

        assertThat(probe.command()).containsExactly("/opt/bin/claude", "auth", "status", "--json");
        assertThat(probe.stdinText()).isEmpty();
        assertThat(probe.environment()).containsEntry("ANTHROPIC_API_KEY", "sk-test")
                .containsKey("CLAUDE_CONFIG_DIR");
        assertThat(Path.of(probe.environment().get("CLAUDE_CONFIG_DIR"))).startsWithRaw(SCRATCH);
        assertThat(probe.secretEnvironment()).contains("ANTHROPIC_API_KEY");
    }

    @Test
    void mcpServersGoToAPerRunMcpConfigFileWithStrictMcpConfigAndNothingWithoutThem() throws Exception {
        Invocation inv = harness.prepare(context(scripted("m")).mcpServers(List.of(
                dev.harness4j.api.McpServer.stdio("tickets", "/opt/t/bin/t", "--ro").withEnv("T_URL", "http://x"),
                dev.harness4j.api.McpServer.http("web", URI.create("http://127.0.0.1:9/mcp")))).build());

        String file = SCRATCH.resolve(ClaudeMcp.FILE).toString();
        assertThat(String.join(" ", inv.command())).contains("--mcp-config " + file + " --strict-mcp-config");
        var json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(inv.files().get(ClaudeMcp.FILE));
        var t = json.path("mcpServers").path("tickets");
        assertThat(t.path("type").asText()).isEqualTo("stdio");
        assertThat(t.path("command").asText()).isEqualTo("/opt/t/bin/t");
        assertThat(t.path("args").get(0).asText()).isEqualTo("--ro");
        assertThat(t.path("env").path("T_URL").asText()).isEqualTo("http://x");
        assertThat(json.path("mcpServers").path("web").path("type").asText()).isEqualTo("http");
        assertThat(json.path("mcpServers").path("web").path("url").asText()).isEqualTo("http://127.0.0.1:9/mcp");
        assertThat(harness.supportsMcp()).isTrue();

        Invocation none = harness.prepare(context(scripted("m")).build());
        assertThat(none.command()).doesNotContain("--mcp-config", "--strict-mcp-config");
        assertThat(none.files()).doesNotContainKey(ClaudeMcp.FILE);
    }
}
