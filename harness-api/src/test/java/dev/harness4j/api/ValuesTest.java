package dev.harness4j.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.harness4j.api.support.Outcomes;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;

class ValuesTest {

    @Test
    void aSecretNeverPrintsItself() {
        Secret key = Secret.of("sk-live-123");
        ResolvedProvider p = new ResolvedProvider("anthropic", EnumSet.of(ApiStyle.ANTHROPIC),
                URI.create("https://api.anthropic.com"), key, AuthScheme.API_KEY, "claude-sonnet-4-5");

        assertThat(key).hasToString("***");
        assertThat(p.toString()).doesNotContain("sk-live-123").contains("***");
        assertThat(key.reveal()).isEqualTo("sk-live-123");
    }

    @Test
    void v1UrlIsAppendedOnce() {
        assertThat(provider("http://127.0.0.1:8080").v1Url()).isEqualTo("http://127.0.0.1:8080/v1");
        assertThat(provider("http://127.0.0.1:8080/").v1Url()).isEqualTo("http://127.0.0.1:8080/v1");
        assertThat(provider("http://gw:4000/v1").v1Url()).isEqualTo("http://gw:4000/v1");
        assertThat(provider("http://gw:4000/v1/").rootUrl()).isEqualTo("http://gw:4000");
    }

    @Test
    void unmeasuredTokensAreAbsentNotZero() {
        TokenUsage none = TokenUsage.unmeasured();
        TokenUsage some = TokenUsage.ofAdapter(100L, 20L, null, null);

        assertThat(none.isMeasured()).isFalse();
        assertThat(none.input()).isNull();
        assertThat(none.total()).isEmpty();
        assertThat(TokenUsage.ofAdapter(null, null, null, null)).isSameAs(none);
        assertThat(some.total()).hasValue(120L);
        assertThat(some.cacheRead()).isNull();
        assertThatThrownBy(() -> new TokenUsage(1L, null, null, null, null)).hasMessageContaining("source");
    }

    @Test
    void removeEnvironmentMatchesNamesAndStarPrefixes() {
        Invocation inv = Invocation.builder("claude").workingDir(Path.of("/w"))
                .removeEnv("ANTHROPIC_*").removeEnv("OPENAI_API_KEY")
                .secretEnv("ANTHROPIC_API_KEY", "sk-1").env("PLAIN", "x").build();

        assertThat(inv.removes("ANTHROPIC_BASE_URL")).isTrue();
        assertThat(inv.removes("OPENAI_API_KEY")).isTrue();
        assertThat(inv.removes("OPENAI_API_BASE")).isFalse();
        assertThat(inv.secretValues()).containsExactly("sk-1");
    }

    @Test
    void invocationFilesMustStayInsideTheScratchDir() {
        assertThatThrownBy(() -> Invocation.builder("x").workingDir(Path.of("/w")).file("../escape", "").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("relative to the scratch dir");
        assertThatThrownBy(() -> Invocation.builder("x").workingDir(Path.of("/w")).file("/etc/passwd", "").build())
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void outcomesHaveKebabWireNamesThatRoundTrip() {
        assertThat(Outcome.NO_OP.wireName()).isEqualTo("no-op");
        assertThat(Outcome.CONTEXT_OVERFLOW.wireName()).isEqualTo("context-overflow");
        for (Outcome o : Outcome.values()) {
            assertThat(Outcome.fromWireName(o.wireName())).isEqualTo(o);
        }
        assertThat(Outcome.TRANSIENT.isRetryable()).isTrue();
        assertThat(Outcome.AUTH.isRetryable()).isFalse();
    }

    @Test
    void httpStatusesMapToErrorClasses() {
        assertThat(Outcomes.fromHttpStatus(429)).hasValue(Outcome.RATE_LIMITED);
        assertThat(Outcomes.fromHttpStatus(401)).hasValue(Outcome.AUTH);
        assertThat(Outcomes.fromHttpStatus(403)).hasValue(Outcome.AUTH);
        assertThat(Outcomes.fromHttpStatus(529)).hasValue(Outcome.TRANSIENT);
        assertThat(Outcomes.fromHttpStatus(500)).hasValue(Outcome.TRANSIENT);
        assertThat(Outcomes.fromHttpStatus(400)).hasValue(Outcome.BAD_REQUEST);
        assertThat(Outcomes.fromHttpStatus(200)).isEmpty();
    }

    @Test
    void limitsRejectNonPositiveDurations() {
        assertThatThrownBy(() -> Limits.NONE.withInactivityTimeout(Duration.ZERO))
                .hasMessageContaining("inactivityTimeout must be positive");
        assertThat(Limits.NONE.withMaxRuntime(Duration.ofMinutes(5)).maxRuntime()).isEqualTo(Duration.ofMinutes(5));
    }

    @Test
    void budgetLimitsRejectNonPositiveValuesAndABudgetStopIsOutcomeBudget() {
        assertThatThrownBy(() -> Limits.NONE.withMaxTokens(0L)).hasMessageContaining("maxTokens must be >= 1");
        assertThatThrownBy(() -> Limits.NONE.withMaxCostUsd(java.math.BigDecimal.ZERO)).hasMessageContaining("maxCostUsd");
        assertThatThrownBy(() -> Limits.NONE.withMaxModelRequests(0)).hasMessageContaining("maxModelRequests");
        Limits l = new Limits(Duration.ofSeconds(1), null, 3).withMaxTokens(10L);
        assertThat(l.maxTurns()).isEqualTo(3);
        assertThat(l.hasBudget()).isTrue();
        assertThat(Limits.NONE.hasBudget()).isFalse();
        assertThat(Outcomes.fromTermination(new Termination(Termination.Kind.BUDGET, "passed max tokens 10")))
                .hasValue(Outcome.BUDGET);
    }

    @Test
    void theGuardsRateLimitStopImposesRateLimitedAndNoHarnessStopsByDefault() {
        assertThat(Outcomes.fromTermination(new Termination(Termination.Kind.RATE_LIMITED, "stopped after 4 429s")))
                .hasValue(Outcome.RATE_LIMITED);
        assertThat(new Termination(Termination.Kind.RATE_LIMITED, null).stopped()).isTrue();
        assertThat(Outcomes.fromTermination(new Termination(Termination.Kind.AUTH_REFUSED, "HTTP 401"))).hasValue(Outcome.AUTH);
        assertThat(Outcomes.fromTermination(new Termination(Termination.Kind.ENDPOINT_FAILING, "5 x HTTP 500")))
                .hasValue(Outcome.TRANSIENT);
        Harness plain = new Harness() {
            @Override public String id() { return "plain"; }
            @Override public CompletionMode completionMode() { return CompletionMode.OPAQUE; }
            @Override public InstallInfo installInfo() { return new InstallInfo("plain", java.util.List.of(), "none"); }
            @Override public Invocation prepare(HarnessContext context) { throw new UnsupportedOperationException(); }
            @Override public HarnessResult interpret(Execution execution) { throw new UnsupportedOperationException(); }
        };
        assertThat(plain.stopAfterRateLimits()).as("never, unless the adapter says").isZero();
    }

    @Test
    void aServedModelVerdictOtherThanUnmeasuredNeedsTheAnsweringModels() {
        assertThat(ServedModel.exact("m", java.util.List.of()).verdict()).isEqualTo(ServedModel.Verdict.UNMEASURED);
        assertThat(ServedModel.exact("m", java.util.List.of("m")).verdict()).isEqualTo(ServedModel.Verdict.MATCH);
        assertThat(ServedModel.exact("m", java.util.List.of("m", "other")).verdict())
                .isEqualTo(ServedModel.Verdict.MISMATCH);
        assertThatThrownBy(() -> new ServedModel("m", java.util.List.of(), ServedModel.Verdict.MATCH))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void runSpecBuilderSaysWhatIsMissing() {
        assertThatThrownBy(() -> RunSpec.builder("claude-code", "anthropic").baseline(Path.of("/r")).build())
                .hasMessageContaining("needs a prompt");
        RunSpec spec = RunSpec.builder("claude-code", "anthropic").prompt("p").baseline(Path.of("/r")).build();
        assertThat(spec.isolation()).isEqualTo(Isolation.CLONE);
        assertThat(spec.model()).isNull();
        assertThat(spec.withModel("m").model()).isEqualTo("m");
    }

    private static ResolvedProvider provider(String url) {
        return new ResolvedProvider("p", EnumSet.of(ApiStyle.OPENAI), URI.create(url), null, AuthScheme.BEARER, "m");
    }

    @Test
    void aCliLoginProviderHasNoUrlStyleOrKey() {
        ResolvedProvider own = ResolvedProvider.cliLogin("own", "sonnet");
        assertThat(own.usesCliLogin()).isTrue();
        assertThat(own.baseUrl()).isNull();
        assertThat(own.serves(ApiStyle.ANTHROPIC)).isFalse();
        assertThat(own.withModel("opus").usesCliLogin()).isTrue();
        org.assertj.core.api.Assertions.assertThatThrownBy(own::rootUrl).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("own login");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new ResolvedProvider("p",
                java.util.Set.of(ApiStyle.OPENAI), null, null, AuthScheme.API_KEY, "m"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("CLI's own login");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new ResolvedProvider("p", java.util.Set.of(),
                java.net.URI.create("http://h"), null, AuthScheme.API_KEY, "m"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least one API style");
    }
}
