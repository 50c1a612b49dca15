package dev.harness4j.claude;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.Cost;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.ServedModel.Verdict;
import dev.harness4j.api.Termination;
import dev.harness4j.api.TokenUsage;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Interprets stdout captured from the real {@code claude} binary against the scripted model
 * server (see {@code captured/README.md}); nothing here is a hand-written envelope.
 */
class ClaudeCapturedOutputTest {
    private static final Instant NOW = Instant.parse("2026-11-29T14:30:00Z");
    @TempDir Path dir;
    private final ClaudeCodeHarness harness = new ClaudeCodeHarness(Clock.fixed(NOW, ZoneOffset.UTC));

    private Executions captured(String scenario, String model) {
        return Executions.in(dir).model(model)
                .stdout(Executions.resource("captured/" + scenario + ".stdout"))
                .exit(Integer.parseInt(Executions.resource("captured/" + scenario + ".exit").strip()));
    }

    @Test
    void aWriteFileRunIsCompletedWithTheScriptedTokensCostSummaryAndAMatchingModel() {
        HarnessResult r = harness.interpret(captured("write-file", "cap-write").changes(Executions.CHANGED).build());

        assertThat(r.outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(r.reason()).isNull();
        assertThat(r.tokens()).isEqualTo(new TokenUsage(210L, 25L, 30L, 40L, TokenUsage.Source.ADAPTER));
        assertThat(r.cost().usd()).isEqualByComparingTo(new BigDecimal("0.00194"));
        assertThat(r.cost().source()).isEqualTo(Cost.Source.CLI_ESTIMATE);
        assertThat(r.cost().note()).contains("default model's rate");
        assertThat(r.servedModel().answered()).containsExactly("cap-write");
        assertThat(r.servedModel().verdict()).isEqualTo(Verdict.MATCH);
        assertThat(r.summary()).isEqualTo("Wrote hello.txt.");
        assertThat(r.retryAt()).isNull();
    }

    @Test
    void aCleanAnswerThatChangedNothingIsANoOp() {
        HarnessResult r = harness.interpret(captured("no-op", "cap-noop").changes(Executions.UNCHANGED).build());

        assertThat(r.outcome()).isEqualTo(Outcome.NO_OP);
        assertThat(r.outcome().isSuccess()).isTrue();
        assertThat(r.reason()).contains("changed nothing");
        assertThat(r.summary()).isEqualTo("Nothing to change.");
    }

    @Test
    void anotherAnsweringModelIsAMismatchAlthoughModelUsageNamesTheRequestedOne() {
        HarnessResult r = harness.interpret(captured("answer-as-other", "cap-other").build());

        assertThat(r.servedModel().answered()).containsExactly("claude-other-9");
        assertThat(r.servedModel().verdict()).isEqualTo(Verdict.MISMATCH);
    }

    @Test
    void anAliasAnsweredByAFullIdOfItsFamilyIsAMatch() {
        HarnessResult r = harness.interpret(captured("alias-haiku", "haiku").build());

        assertThat(r.servedModel().answered()).containsExactly("claude-haiku-5-5");
        assertThat(r.servedModel().verdict()).isEqualTo(Verdict.MATCH);
    }

    @Test
    void aContextLengthRefusalIsContextOverflowWithNoAnsweringModel() {
        HarnessResult r = harness.interpret(captured("context-overflow", "cap-context").build());

        assertThat(r.outcome()).isEqualTo(Outcome.CONTEXT_OVERFLOW);
        assertThat(r.outcome().isRetryable()).isFalse();
        assertThat(r.reason()).contains("HTTP 400").containsIgnoringCase("prompt is too long");
        assertThat(r.servedModel().verdict()).isEqualTo(Verdict.UNMEASURED);
        assertThat(r.summary()).isNull();
    }

    @Test
    void a429IsRateLimitedUntilTheLoggedRetryAfter() {
        HarnessResult r = harness.interpret(captured("rate-limited", "cap-ratelimit").build());

        assertThat(r.outcome()).isEqualTo(Outcome.RATE_LIMITED);
        // date: Sun, 29 Nov 2026 14:24:53 GMT + retry-after-ms 90000
        assertThat(r.retryAt()).isEqualTo(Instant.parse("2026-11-29T14:26:23Z"));
        assertThat(r.reason()).isEqualTo("claude-code reported an error (HTTP 429): "
                + "API Error: Request rejected (429) · rate limit exceeded: scripted 429");
    }

    @Test
    void theLoggedRetryAfterHeaderWinsOverAWaitTheErrorTextNames() {
        String stdout = Executions.resource("captured/rate-limited.stdout").replace(
                "\"result\":\"API Error: Request rejected (429) · rate limit exceeded: scripted 429\"",
                "\"result\":\"API Error: Request rejected (429) · rate limit exceeded. Please try again in 20s.\"");
        assertThat(stdout).contains("Please try again in 20s");

        HarnessResult r = harness.interpret(Executions.in(dir).model("cap-ratelimit").stdout(stdout)
                .exit(Integer.parseInt(Executions.resource("captured/rate-limited.exit").strip())).build());

        assertThat(r.outcome()).isEqualTo(Outcome.RATE_LIMITED);
        assertThat(r.retryAt()).as("the header's (date + retry-after-ms 90000), not now + 20 s")
                .isEqualTo(Instant.parse("2026-11-29T14:26:23Z"));
    }

    @Test
    void aRunThatFailedBeforeAnyModelAnsweredHasUnmeasuredTokensAndNoCostThoughTheEnvelopeSaysZero() {
        for (String[] c : new String[][] {{"rate-limited", "cap-ratelimit"}, {"auth", "cap-write"},
            {"server-error-500", "cap-500"}, {"overloaded-529", "cap-529"}, {"bad-request-400", "cap-400"},
            {"context-overflow", "cap-context"}}) {
            assertThat(Executions.resource("captured/" + c[0] + ".stdout"))
                    .as(c[0]).contains("\"total_cost_usd\":0,").contains("\"input_tokens\":0,");

            HarnessResult r = harness.interpret(captured(c[0], c[1]).build());

            assertThat(r.tokens()).as(c[0]).isEqualTo(TokenUsage.unmeasured());
            assertThat(r.cost()).as(c[0]).isNull();
        }
    }

    @Test
    void aRefusedKeyIsAuth() {
        HarnessResult r = harness.interpret(captured("auth", "cap-write").build());

        assertThat(r.outcome()).isEqualTo(Outcome.AUTH);
        assertThat(r.reason()).contains("401");
        assertThat(r.retryAt()).isNull();
    }

    @Test
    void serverErrorsAndOverloadAreTransient() {
        assertThat(harness.interpret(captured("server-error-500", "cap-500").build()).outcome())
                .isEqualTo(Outcome.TRANSIENT);
        assertThat(harness.interpret(captured("overloaded-529", "cap-529").build()).outcome())
                .isEqualTo(Outcome.TRANSIENT);
    }

    @Test
    void anotherRefusedRequestIsABadRequest() {
        HarnessResult r = harness.interpret(captured("bad-request-400", "cap-400").build());

        assertThat(r.outcome()).isEqualTo(Outcome.BAD_REQUEST);
        assertThat(r.reason()).contains("unknown field");
    }

    @Test
    void hittingTheTurnLimitIsMaxTurnsWithTheTokensSpentSoFar() {
        HarnessResult r = harness.interpret(captured("max-turns", "cap-maxturns").build());

        assertThat(r.outcome()).isEqualTo(Outcome.MAX_TURNS);
        assertThat(r.reason()).contains("(error_max_turns)").contains("maximum number of turns");
        assertThat(r.tokens().input()).isEqualTo(10L);
        assertThat(r.servedModel().verdict()).isEqualTo(Verdict.MATCH);
    }

    @Test
    void aGuardStopWinsEvenOverASuccessEnvelope() {
        HarnessResult r = harness.interpret(captured("write-file", "cap-write").exit(null)
                .termination(new Termination(Termination.Kind.BAILED, "bailed by the caller")).build());

        assertThat(r.outcome()).isEqualTo(Outcome.BAILED);
        assertThat(r.tokens().input()).isEqualTo(210L);
    }

    @Test
    void aRunStoppedBeforeItsEnvelopeStillNamesTheModelsThatAnswered() {
        String full = Executions.resource("captured/answer-as-other.stdout");
        String cut = full.substring(0, full.indexOf("{\"type\":\"result\""));
        HarnessResult r = harness.interpret(Executions.in(dir).model("cap-other").stdout(cut).exit(null)
                .termination(new Termination(Termination.Kind.MAX_RUNTIME, "ran longer than 20 min")).build());

        assertThat(r.outcome()).isEqualTo(Outcome.TIMEOUT);
        assertThat(r.tokens().isMeasured()).isFalse();
        assertThat(r.servedModel().answered()).containsExactly("claude-other-9");
        assertThat(r.servedModel().verdict()).isEqualTo(Verdict.MISMATCH);
    }

    @Test
    void findsTheEnvelopeAmidTheApiClientsDebugLines() {
        String stdout = Executions.resource("captured/write-file.stdout");

        assertThat(stdout).contains("[log_");
        assertThat(ResultEnvelope.find(stdout)).hasValueSatisfying(e -> {
            assertThat(e.subtype()).isEqualTo("success");
            assertThat(e.numTurns()).isEqualTo(2);
            assertThat(e.modelUsageKeys()).containsExactly("cap-write");
        });
    }
}
