package dev.harness4j.copilot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessException;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.McpServer;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.Secret;
import java.net.URI;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@link CopilotHarness#prepare}: pure translation of a context into argv, env and the MCP file. */
class CopilotPrepareTest {
    private static final String KEY = "sk-test-secret-value";
    private static final Path WORKSPACE = Path.of("/state/runs/r1/workspace");
    private static final Path SCRATCH = Path.of("/state/runs/r1/scratch");

    private final CopilotHarness harness = new CopilotHarness();

    private static ResolvedProvider provider(Set<ApiStyle> styles) {
        return new ResolvedProvider("gw", EnumSet.copyOf(styles), URI.create("http://127.0.0.1:9999/"), Secret.of(KEY),
                AuthScheme.BEARER, "gpt-x");
    }

    private static HarnessContext.Builder context(ResolvedProvider provider) {
        return HarnessContext.builder().runId("r1").prompt("Fix the \"bug\"\nthen stop").provider(provider)
                .workspace(WORKSPACE).scratchDir(SCRATCH).executable("/tools/copilot");
    }

    @Test
    void argvRunsHeadlessJsonYoloOfflineOnTheRequestedModelWithTheKeyOnlyInASecretVariable() {
        Invocation inv = harness.prepare(context(provider(Set.of(ApiStyle.OPENAI, ApiStyle.ANTHROPIC))).build());

        assertThat(inv.command()).containsExactly("/tools/copilot", "-p", "Fix the \"bug\"\nthen stop", "--yolo",
                "--no-ask-user", "--output-format", "json", "--no-auto-update", "--disable-builtin-mcps",
                "--model", "gpt-x");
        assertThat(inv.workingDir()).isEqualTo(WORKSPACE);
        assertThat(inv.environment())
                .containsEntry("COPILOT_OFFLINE", "true")
                .containsEntry("COPILOT_PROVIDER_TYPE", "openai")
                .containsEntry("COPILOT_PROVIDER_BASE_URL", "http://127.0.0.1:9999/v1")
                .containsEntry("COPILOT_MODEL", "gpt-x")
                .containsEntry("COPILOT_HOME", SCRATCH.resolve("copilot/home").toString())
                .containsEntry("HOME", SCRATCH.resolve("copilot/user-home").toString())
                .containsEntry("COPILOT_PROVIDER_API_KEY", KEY);
        assertThat(inv.secretEnvironment()).containsExactly("COPILOT_PROVIDER_API_KEY");
        assertThat(inv.removeEnvironment()).contains("COPILOT_*", "GH_TOKEN", "GITHUB_TOKEN");
        assertThat(String.join(" ", inv.command())).doesNotContain(KEY);
        assertThat(inv.files()).containsOnlyKeys("copilot/home/.keep", "copilot/user-home/.keep", "copilot/tmp/.keep");
    }

    @Test
    void anAnthropicOnlyEndpointIsReachedAsAnthropicOnItsRootAndAFollowUpResumesItsSession() {
        Invocation inv = harness.prepare(context(provider(Set.of(ApiStyle.ANTHROPIC))).resumeSession("s-1").build());

        assertThat(inv.environment()).containsEntry("COPILOT_PROVIDER_TYPE", "anthropic")
                .containsEntry("COPILOT_PROVIDER_BASE_URL", "http://127.0.0.1:9999");
        assertThat(inv.command()).endsWith("--resume=s-1");
    }

    @Test
    void anEndpointServingNeitherOpenAiNorAnthropicIsRefusedWithWhatItServesAndWhatToDo() {
        ResolvedProvider gemini = provider(Set.of(ApiStyle.GEMINI));

        assertThat(harness.unsupported(gemini)).get().asString()
                .contains("provider 'gw'", "[GEMINI]", "OpenAI chat completions", "Anthropic Messages", "another harness");
        assertThatThrownBy(() -> harness.prepare(context(gemini).build())).isInstanceOf(HarnessException.class)
                .hasMessage(harness.unsupported(gemini).orElseThrow());
    }

    @Test
    void mcpServersGoToAPerRunFileAsLocalAndHttpWithEveryToolAllowed() throws Exception {
        Invocation inv = harness.prepare(context(provider(Set.of(ApiStyle.OPENAI)))
                .mcpServers(List.of(McpServer.stdio("tickets", "/opt/t/bin/t", "--ro").withEnv("T_URL", "http://x"),
                        McpServer.http("web", URI.create("http://127.0.0.1:9/mcp"))))
                .build());

        assertThat(inv.command()).containsSequence("--additional-mcp-config",
                "@" + SCRATCH.resolve("copilot/mcp-config.json"));
        JsonNode servers = new ObjectMapper().readTree(inv.files().get(CopilotInvocations.MCP_FILE)).path("mcpServers");
        JsonNode t = servers.path("tickets");
        assertThat(t.path("type").asText()).isEqualTo("local");
        assertThat(t.path("command").asText()).isEqualTo("/opt/t/bin/t");
        assertThat(t.path("args").toString()).isEqualTo("[\"--ro\"]");
        assertThat(t.path("env").path("T_URL").asText()).isEqualTo("http://x");
        assertThat(t.path("tools").toString()).isEqualTo("[\"*\"]");
        assertThat(servers.path("web").path("type").asText()).isEqualTo("http");
        assertThat(servers.path("web").path("url").asText()).isEqualTo("http://127.0.0.1:9/mcp");
        assertThat(inv.files().get(CopilotInvocations.MCP_FILE)).doesNotContain(KEY);
    }
}
