package dev.harness4j.continuedev;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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

/** {@link ContinueHarness#prepare}: pure translation of a context into argv, env and the per-run config.yaml. */
class ContinuePrepareTest {
    private static final String KEY = "sk-test-secret-value";
    private static final Path WORKSPACE = Path.of("/state/runs/r1/workspace");
    private static final Path SCRATCH = Path.of("/state/runs/r1/scratch");

    private final ContinueHarness harness = new ContinueHarness();

    private static ResolvedProvider provider(Set<ApiStyle> styles) {
        return new ResolvedProvider("gw", EnumSet.copyOf(styles), URI.create("http://127.0.0.1:9999/"), Secret.of(KEY),
                AuthScheme.BEARER, "gpt-x");
    }

    private static HarnessContext.Builder context(ResolvedProvider provider) {
        return HarnessContext.builder().runId("r1").prompt("Fix the \"bug\"\nthen stop").provider(provider)
                .workspace(WORKSPACE).scratchDir(SCRATCH).executable("/tools/cn");
    }

    @Test
    void argvRunsHeadlessAutoJsonOnThePerRunConfigWithTheKeyOnlyInASecretVariable() {
        Invocation inv = harness.prepare(context(provider(Set.of(ApiStyle.OPENAI, ApiStyle.ANTHROPIC))).build());

        assertThat(inv.command()).containsExactly("/tools/cn", "-p", "--auto", "--config",
                SCRATCH.resolve("continue/config.yaml").toString(), "--format", "json", "Fix the \"bug\"\nthen stop");
        assertThat(inv.workingDir()).isEqualTo(WORKSPACE);
        assertThat(inv.environment())
                .containsEntry("CONTINUE_GLOBAL_DIR", SCRATCH.resolve("continue/global").toString())
                .containsEntry("HOME", SCRATCH.resolve("continue/home").toString())
                .containsEntry("TMPDIR", SCRATCH.resolve("continue/tmp").toString())
                .containsEntry("CONTINUE_METRICS_ENABLED", "0")
                .containsEntry("CONTINUE_CLI_ENABLE_TELEMETRY", "0")
                .containsEntry("H4J_CONTINUE_API_KEY", KEY);
        assertThat(inv.secretEnvironment()).containsExactly("H4J_CONTINUE_API_KEY");
        assertThat(inv.removeEnvironment()).contains("CONTINUE_*", "TMPDIR");
        assertThat(String.join(" ", inv.command())).doesNotContain(KEY);
        String config = inv.files().get(ContinueInvocations.CONFIG_FILE);
        assertThat(config).isEqualTo("""
                name: "harness4j run r1"
                version: "0.0.1"
                schema: v1
                models:
                  - name: "harness4j"
                    provider: openai
                    model: "gpt-x"
                    apiBase: "http://127.0.0.1:9999/v1/"
                    apiKey: "${{ secrets.H4J_CONTINUE_API_KEY }}"
                    roles: [chat, edit, apply]
                """);
        assertThat(inv.files()).containsOnlyKeys("continue/config.yaml", "continue/global/index/globalContext.json",
                "continue/home/.keep", "continue/tmp/.keep");
        assertThat(inv.files().values()).allSatisfy(text -> assertThat(text).doesNotContain(KEY));
    }

    @Test
    void anAnthropicOnlyEndpointIsConfiguredAsAnthropicAndTheSystemPromptGoesFirst() {
        Invocation inv = harness.prepare(context(provider(Set.of(ApiStyle.ANTHROPIC))).systemPrompt("Be brief.").build());

        assertThat(inv.files().get(ContinueInvocations.CONFIG_FILE)).contains("    provider: anthropic\n",
                "    apiBase: \"http://127.0.0.1:9999/v1/\"\n");
        assertThat(inv.command()).last().isEqualTo("Be brief.\n\nFix the \"bug\"\nthen stop");
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
    void mcpServersGoToTheConfigAsStdioAndStreamableHttpWithQuotedValues() {
        Invocation inv = harness.prepare(context(provider(Set.of(ApiStyle.OPENAI)))
                .mcpServers(List.of(McpServer.stdio("tickets", "/opt/t/bin/t", "--ro", "a \"b\"").withEnv("T_URL", "http://x"),
                        McpServer.http("web", URI.create("http://127.0.0.1:9/mcp"))))
                .build());

        assertThat(inv.files().get(ContinueInvocations.CONFIG_FILE)).endsWith("""
                mcpServers:
                  - name: "tickets"
                    type: stdio
                    command: "/opt/t/bin/t"
                    args: ["--ro", "a \\"b\\""]
                    env:
                      "T_URL": "http://x"
                  - name: "web"
                    type: streamable-http
                    url: "http://127.0.0.1:9/mcp"
                """);
    }
}
