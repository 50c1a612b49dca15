package dev.harness4j.codex;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessException;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.Secret;
import java.net.URI;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@link CodexHarness#prepare}: pure translation of a context into argv, env and config file. */
class CodexPrepareTest {
    private static final String KEY = "sk-test-secret-value";
    private static final Path WORKSPACE = Path.of("/state/runs/r1/workspace");
    private static final Path SCRATCH = Path.of("/state/runs/r1/scratch");

    private final CodexHarness harness = new CodexHarness();

    private static ResolvedProvider provider(Set<ApiStyle> styles, Secret secret) {
        return new ResolvedProvider("gw", EnumSet.copyOf(styles), URI.create("http://127.0.0.1:9999/"), secret,
                AuthScheme.BEARER, "gpt-5-codex");
    }

    private static HarnessContext.Builder context(ResolvedProvider provider) {
        return HarnessContext.builder().runId("r1").prompt("Fix the \"bug\" in main.c\nthen stop").provider(provider)
                .workspace(WORKSPACE).scratchDir(SCRATCH).executable("/tools/codex");
    }

    private static Invocation openai() {
        return new CodexHarness().prepare(context(provider(Set.of(ApiStyle.OPENAI), Secret.of(KEY))).build());
    }

    private static String config(Invocation inv) {
        return inv.files().get(CodexInvocations.CONFIG_FILE);
    }

    @Test
    void aRunKeptForAFollowUpSavesItsSessionAndAFollowUpResumesItInItsOwnDirectory() {
        ResolvedProvider p = provider(Set.of(ApiStyle.OPENAI), Secret.of(KEY));
        Invocation kept = harness.prepare(context(p).keepSession(true).build());
        assertThat(kept.command()).as("a kept run's session is saved").doesNotContain("--ephemeral")
                .contains("--cd", "--json");

        Invocation followUp = harness.prepare(context(p).keepSession(true).resumeSession("0199-thread").build());
        assertThat(followUp.command()).containsExactly("/tools/codex", "exec", "resume", "--json",
                "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox", "--model", "gpt-5-codex",
                "0199-thread", "-");
        assertThat(followUp.workingDir()).isEqualTo(WORKSPACE);
        assertThat(followUp.files().get(CodexInvocations.CONFIG_FILE)).as("the config names this run's endpoint")
                .isEqualTo(config(openai()));
        assertThat(harness.supportsFollowUp()).isTrue();
    }

    @Test
    void argvRunsExecWithJsonEventsTheRequestedModelTheWorkspaceAndThePromptFromStdin() {
        Invocation inv = openai();

        assertThat(inv.command()).containsExactly("/tools/codex", "exec", "--json", "--color", "never", "--ephemeral",
                "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox", "--model", "gpt-5-codex",
                "--cd", WORKSPACE.toString(), "-");
        assertThat(inv.workingDir()).isEqualTo(WORKSPACE);
        assertThat(inv.stdin()).isEqualTo("Fix the \"bug\" in main.c\nthen stop");
        assertThat(String.join(" ", inv.command())).doesNotContain("bug");
    }

    @Test
    void configSelectsOneResponsesProviderAtTheV1UrlAndNamesTheKeyWithoutHoldingIt() {
        Invocation inv = openai();
        String c = config(inv);

        assertThat(c).contains("model = \"gpt-5-codex\"\n", "model_provider = \"harness4j\"\n",
                "approval_policy = \"never\"\n", "sandbox_mode = \"danger-full-access\"\n",
                "check_for_update_on_startup = false\n", "[analytics]\nenabled = false\n",
                "[model_providers.harness4j]\n", "base_url = \"http://127.0.0.1:9999/v1\"\n",
                "wire_api = \"responses\"\n", "env_key = \"HARNESS4J_CODEX_API_KEY\"\n");
        assertThat(c).doesNotContain(KEY).doesNotContain("developer_instructions");
        assertThat(inv.environment()).containsEntry("HARNESS4J_CODEX_API_KEY", KEY);
        assertThat(inv.secretEnvironment()).containsExactly("HARNESS4J_CODEX_API_KEY");
    }

    @Test
    void codexHomeAndItsConfigLiveInTheScratchDirAndTheLogNamesStatusesAndAnsweringModels() {
        Invocation inv = openai();

        assertThat(inv.environment())
                .containsEntry("CODEX_HOME", SCRATCH.resolve("codex/home").toString())
                .containsEntry("RUST_LOG", "error,codex_http_client::client=debug,codex_api::sse::responses=trace")
                .containsEntry("PWD", WORKSPACE.toString());
        assertThat(inv.files()).containsOnlyKeys("codex/home/config.toml", "codex/user-home/.keep");
        assertThat(inv.environment().values()).noneMatch(v -> v.startsWith(WORKSPACE + "/"));
    }

    @Test
    void homeIsAPerRunDirInScratchSoItsLoginShellsSourceNoUserRcFile() {
        Invocation inv = openai();

        assertThat(inv.environment()).containsEntry("HOME", SCRATCH.resolve("codex/user-home").toString());
        assertThat(inv.removes("BASH_ENV")).isTrue();
        assertThat(inv.removes("ENV")).isTrue();
        assertThat(inv.removes("ZDOTDIR")).isTrue();
    }

    @Test
    void strayOpenAiAndCodexVariablesAreRemoved() {
        Invocation inv = openai();

        assertThat(inv.removes("OPENAI_API_KEY")).isTrue();
        assertThat(inv.removes("OPENAI_BASE_URL")).isTrue();
        assertThat(inv.removes("CODEX_HOME")).isTrue();
        assertThat(inv.removes("CODEX_API_KEY")).isTrue();
        assertThat(inv.removes("RUST_LOG")).isTrue();
        assertThat(inv.removes("PATH")).isFalse();
        assertThat(inv.removes("HOME")).isFalse();
    }

    @Test
    void endpointWithoutKeyGetsNoEnvKeyAndNoSecret() {
        Invocation inv = harness.prepare(context(provider(Set.of(ApiStyle.OPENAI), null)).build());

        assertThat(config(inv)).doesNotContain("env_key");
        assertThat(inv.secretEnvironment()).isEmpty();
    }

    @Test
    void systemPromptBecomesDeveloperInstructionsQuotedForToml() {
        Invocation inv = harness.prepare(context(provider(Set.of(ApiStyle.OPENAI), null))
                .systemPrompt("Say \"hi\"\\n\tthen\nstop").build());

        assertThat(config(inv)).contains("developer_instructions = \"Say \\\"hi\\\"\\\\n\\tthen\\nstop\"\n");
    }

    @Test
    void anthropicOnlyEndpointIsRefusedWithTheReasonAndTheFix() {
        HarnessContext ctx = context(provider(Set.of(ApiStyle.ANTHROPIC), null)).build();

        assertThatThrownBy(() -> harness.prepare(ctx)).isInstanceOf(HarnessException.class)
                .hasMessageContaining("provider 'gw'").hasMessageContaining("ANTHROPIC")
                .hasMessageContaining("Responses API");
    }

    @Test
    void mcpServersBecomeMcpServersTablesOfThePerRunConfig() {
        Invocation inv = new CodexHarness().prepare(context(provider(Set.of(ApiStyle.OPENAI), Secret.of(KEY)))
                .mcpServers(java.util.List.of(
                        dev.harness4j.api.McpServer.stdio("tickets", "/opt/t/bin/t", "--ro", "a \"b\"")
                                .withEnv("T_URL", "http://x"),
                        dev.harness4j.api.McpServer.http("web", java.net.URI.create("http://127.0.0.1:9/mcp"))))
                .build());
        String toml = config(inv);

        assertThat(toml).contains("\n[mcp_servers.tickets]\ncommand = \"/opt/t/bin/t\"\nargs = [\"--ro\", \"a \\\"b\\\"\"]\n"
                + "startup_timeout_sec = 30\n\n[mcp_servers.tickets.env]\nT_URL = \"http://x\"\n");
        assertThat(toml).contains("\n[mcp_servers.web]\nurl = \"http://127.0.0.1:9/mcp\"\n");
        assertThat(config(openai())).doesNotContain("mcp_servers");
    }
}
