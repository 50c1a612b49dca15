package dev.harness4j.aider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.api.HarnessException;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.Secret;
import java.net.URI;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which LiteLLM route aider gets for a provider's API styles, and what it refuses. */
class AiderRouteTest {
    private final AiderHarness harness = new AiderHarness();

    private static ResolvedProvider provider(AuthScheme auth, Secret secret, ApiStyle... styles) {
        return new ResolvedProvider("gateway", EnumSet.copyOf(List.of(styles)), URI.create("http://127.0.0.1:4000/"),
                secret, auth, "claude-x");
    }

    private Invocation prepare(ResolvedProvider provider) {
        return harness.prepare(AiderLaunchTest.context(provider).build());
    }

    @Test
    void anAnthropicOnlyProviderGetsLiteLlmsAnthropicRouteWithTheKeyInASecretVariable() {
        Invocation inv = prepare(provider(AuthScheme.API_KEY, Secret.of("sk-ant-live"), ApiStyle.ANTHROPIC));

        assertThat(inv.command()).containsSubsequence("--model", "anthropic/claude-x")
                .containsSubsequence("--set-env", "ANTHROPIC_API_BASE=http://127.0.0.1:4000")
                .doesNotContain("--openai-api-base");
        assertThat(inv.environment()).containsEntry("ANTHROPIC_API_BASE", "http://127.0.0.1:4000")
                .containsEntry("ANTHROPIC_API_KEY", "sk-ant-live").doesNotContainKey("OPENAI_API_KEY");
        assertThat(inv.secretEnvironment()).containsExactly("ANTHROPIC_API_KEY");
        assertThat(inv.command()).noneMatch(a -> a.contains("sk-ant-live"));
        assertThat(inv.files().values()).noneMatch(c -> c.contains("sk-ant-live"));
    }

    @Test
    void aGeminiOnlyProviderGetsLiteLlmsGeminiRouteOnItsV1betaUrl() {
        Invocation inv = prepare(provider(AuthScheme.API_KEY, Secret.of("g-key"), ApiStyle.GEMINI));

        assertThat(inv.command()).containsSubsequence("--model", "gemini/claude-x")
                .containsSubsequence("--set-env", "GEMINI_API_BASE=http://127.0.0.1:4000/v1beta");
        assertThat(inv.environment()).containsEntry("GEMINI_API_KEY", "g-key");
        assertThat(inv.secretEnvironment()).containsExactly("GEMINI_API_KEY");
        assertThat(inv.removes("GOOGLE_API_KEY")).as("LiteLLM prefers it to GEMINI_API_KEY").isTrue();
        assertThat(inv.removes("LITELLM_ANTHROPIC_DISABLE_URL_SUFFIX")).isTrue();
    }

    @Test
    void aKeylessGeminiEndpointStillGetsAKeyBecauseLiteLlmRefusesToRunWithoutOne() {
        Invocation inv = prepare(provider(AuthScheme.API_KEY, null, ApiStyle.GEMINI));

        assertThat(inv.environment()).containsEntry("GEMINI_API_KEY", AiderLaunch.NO_KEY);
        assertThat(inv.secretEnvironment()).isEmpty();
    }

    @Test
    void openAiChatIsPreferredWhenServedThenAnthropicThenGemini() {
        assertThat(AiderRoute.of(provider(AuthScheme.API_KEY, null, ApiStyle.GEMINI, ApiStyle.ANTHROPIC, ApiStyle.OPENAI)))
                .contains(AiderRoute.OPENAI);
        assertThat(AiderRoute.of(provider(AuthScheme.API_KEY, null, ApiStyle.GEMINI, ApiStyle.ANTHROPIC)))
                .contains(AiderRoute.ANTHROPIC);
        assertThat(AiderRoute.of(provider(AuthScheme.API_KEY, null, ApiStyle.OLLAMA, ApiStyle.GEMINI)))
                .contains(AiderRoute.GEMINI);
        assertThat(AiderRoute.of(provider(AuthScheme.API_KEY, null, ApiStyle.OLLAMA))).isEmpty();
    }

    @Test
    void aProviderWithNoStyleLiteLlmSpeaksIsRefusedByUnsupportedAndPrepareAlike() {
        ResolvedProvider ollama = provider(AuthScheme.API_KEY, Secret.of("sk-o"), ApiStyle.OLLAMA);

        assertThat(harness.unsupported(ollama)).hasValueSatisfying(why -> assertThat(why)
                .contains("provider 'gateway'", "[OLLAMA]", "OpenAI", "Anthropic", "Gemini").doesNotContain("sk-o"));
        assertThatThrownBy(() -> prepare(ollama)).isInstanceOf(HarnessException.class)
                .hasMessage(harness.unsupported(ollama).orElseThrow());
    }

    @Test
    void anAnthropicOnlyProviderThatWantsABearerTokenIsRefusedNamingTheFix() {
        ResolvedProvider bearer = provider(AuthScheme.BEARER, Secret.of("sk-b"), ApiStyle.ANTHROPIC);

        assertThat(harness.unsupported(bearer)).hasValueSatisfying(why -> assertThat(why)
                .contains("provider 'gateway'", "x-api-key", "api_key").doesNotContain("sk-b"));
        assertThatThrownBy(() -> prepare(bearer)).hasMessage(harness.unsupported(bearer).orElseThrow());
        assertThat(harness.unsupported(provider(AuthScheme.BEARER, Secret.of("sk-b"), ApiStyle.ANTHROPIC, ApiStyle.OPENAI)))
                .as("OpenAI chat sends it as a bearer").isEmpty();
    }

    @Test
    void theClisOwnLoginIsRefused() {
        ResolvedProvider login = ResolvedProvider.cliLogin("subscription", "m");

        assertThat(harness.unsupported(login)).hasValueSatisfying(why -> assertThat(why)
                .contains("provider 'subscription'", "own login", "base_url"));
        assertThatThrownBy(() -> prepare(login)).hasMessage(harness.unsupported(login).orElseThrow());
    }
}
