package dev.harness4j.aider;

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
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AiderLaunchTest {
    private static final Path WORKSPACE = Path.of("/state/runs/r1/workspace");
    private static final Path SCRATCH = Path.of("/state/runs/r1/scratch");
    private static final String PROMPT = "Create hello.txt containing 'hello'; do not touch README.md";

    private final AiderHarness harness = new AiderHarness();

    static ResolvedProvider provider(Secret secret, ApiStyle... styles) {
        return new ResolvedProvider("gateway", EnumSet.copyOf(List.of(styles)), URI.create("http://127.0.0.1:4000/"),
                secret, AuthScheme.BEARER, "qwen-coder");
    }

    static HarnessContext.Builder context(ResolvedProvider provider) {
        return HarnessContext.builder().runId("r1").prompt(PROMPT).provider(provider)
                .workspace(WORKSPACE).scratchDir(SCRATCH).executable("/tools/bin/aider")
                .environment(Map.of("HOME", "/home/dev", "PATH", "/usr/bin"));
    }

    private Invocation prepare(HarnessContext.Builder ctx) {
        return harness.prepare(ctx.build());
    }

    @Test
    void runsAiderThroughTheLaunchScriptInTheWorkspaceWithTheHeadlessFlags() {
        Invocation inv = prepare(context(provider(Secret.of("sk-live-123"), ApiStyle.OPENAI)));

        assertThat(inv.workingDir()).isEqualTo(WORKSPACE);
        assertThat(inv.command()).startsWith("/bin/sh", SCRATCH.resolve("aider-launch.sh").toString(), "/tools/bin/aider");
        assertThat(inv.command()).containsSubsequence("--message-file", SCRATCH.resolve("aider-message.md").toString());
        assertThat(inv.command()).containsSubsequence("--model", "openai/qwen-coder");
        assertThat(inv.command()).containsSubsequence("--edit-format", "whole");
        assertThat(inv.command()).containsSubsequence("--openai-api-base", "http://127.0.0.1:4000/v1");
        assertThat(inv.command()).contains("--yes-always", "--no-pretty", "--no-fancy-input", "--no-check-update",
                "--no-show-release-notes", "--no-analytics", "--no-show-model-warnings", "--no-gitignore",
                "--auto-commits", "--stream", "--no-detect-urls", "--disable-playwright");
        assertThat(inv.command()).containsSubsequence("--chat-history-file", SCRATCH.resolve("aider-chat.history.md").toString());
        assertThat(inv.command()).containsSubsequence("--input-history-file", SCRATCH.resolve("aider-input.history").toString());
        assertThat(inv.stdinText()).isEmpty();
    }

    @Test
    void putsThePromptInAScratchFileAndNeverInArgv() {
        Invocation inv = prepare(context(provider(null, ApiStyle.OPENAI)));

        assertThat(inv.files()).containsEntry("aider-message.md", PROMPT);
        assertThat(inv.command()).noneMatch(a -> a.contains("hello"));
    }

    @Test
    void givesTheKeyOnlyThroughASecretVariable() {
        Invocation inv = prepare(context(provider(Secret.of("sk-live-123"), ApiStyle.OPENAI, ApiStyle.ANTHROPIC)));

        assertThat(inv.environment()).containsEntry("OPENAI_API_KEY", "sk-live-123");
        assertThat(inv.secretEnvironment()).containsExactly("OPENAI_API_KEY");
        assertThat(inv.secretValues()).containsExactly("sk-live-123");
        assertThat(inv.command()).noneMatch(a -> a.contains("sk-live-123"));
        assertThat(inv.files().values()).noneMatch(c -> c.contains("sk-live-123"));
    }

    @Test
    void setsTheEndpointAndAQuietUnbufferedAiderWithItsHomeInTheScratchDir() {
        Invocation inv = prepare(context(provider(Secret.of("sk-live-123"), ApiStyle.OPENAI)));

        assertThat(inv.environment())
                .containsEntry("OPENAI_API_BASE", "http://127.0.0.1:4000/v1")
                .containsEntry("PYTHONUNBUFFERED", "1")
                .containsEntry("LITELLM_LOCAL_MODEL_COST_MAP", "True")
                .containsEntry("HOME", SCRATCH.resolve("aider-home").toString())
                .containsEntry("HARNESS4J_USER_HOME", "/home/dev")
                .containsEntry("COLUMNS", "1000")
                .containsEntry("BROWSER", "true");
        assertThat(inv.files()).containsKey("aider-home/.aider/caches/model_prices_and_context_window.json");
        assertThat(inv.files().get("aider-home/.aider/caches/model_prices_and_context_window.json")).isNotBlank()
                .isNotEqualTo("{}");
    }

    @Test
    void removesInheritedVariablesThatWouldRedirectOrReconfigureAider() {
        Invocation inv = prepare(context(provider(Secret.of("sk-live-123"), ApiStyle.OPENAI)));

        assertThat(inv.removes("ANTHROPIC_API_KEY")).isTrue();
        assertThat(inv.removes("ANTHROPIC_BASE_URL")).isTrue();
        assertThat(inv.removes("OPENAI_ORGANIZATION")).isTrue();
        assertThat(inv.removes("AIDER_MODEL")).isTrue();
        assertThat(inv.removes("AIDER_AUTO_COMMITS")).isTrue();
        assertThat(inv.removes("GIT_DIR")).isTrue();
        assertThat(inv.removes("PATH")).isFalse();
    }

    @Test
    void passesTheConfiguredEditFormatAndTurnsAutoCommitsAndStreamingOff() {
        Invocation inv = prepare(context(provider(null, ApiStyle.OPENAI))
                .option("edit-format", "diff").option("auto-commits", "false").option("stream", "false"));

        assertThat(inv.command()).containsSubsequence("--edit-format", "diff");
        assertThat(inv.command()).contains("--no-auto-commits", "--no-stream").doesNotContain("--auto-commits", "--stream");
    }

    @Test
    void givesAPlaceholderKeyThatIsNotSecretWhenTheEndpointNeedsNone() {
        Invocation inv = prepare(context(provider(null, ApiStyle.OPENAI)));

        assertThat(inv.environment()).containsEntry("OPENAI_API_KEY", "harness4j-no-key");
        assertThat(inv.secretEnvironment()).isEmpty();
    }

    @Test
    void handsTheSystemPromptToAiderAsAReadOnlyConventionsFile() {
        Invocation inv = prepare(context(provider(null, ApiStyle.OPENAI)).systemPrompt("Always write tests."));

        assertThat(inv.files()).containsEntry("aider-conventions.md", "Always write tests.");
        assertThat(inv.command()).containsSubsequence("--read", SCRATCH.resolve("aider-conventions.md").toString());
    }

    @Test
    void writesTheLaunchScriptThatExcludesAiderFilesAndThenExecsAider() {
        Invocation inv = prepare(context(provider(null, ApiStyle.OPENAI)));

        assertThat(inv.files().get("aider-launch.sh"))
                .startsWith("#!/bin/sh\n")
                .contains("git rev-parse --git-path info/exclude")
                .contains("'.aider*'")
                .endsWith("exec \"$@\"\n");
    }
}
