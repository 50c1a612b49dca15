package dev.harness4j.meter.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.Cost;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.ServedModel;
import dev.harness4j.api.Termination;
import dev.harness4j.api.TokenUsage;
import dev.harness4j.core.provider.ModelPrice;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How the wire's account changes a run's result. */
class WireTruthTest {
    private static final Instant AT = Instant.parse("2026-12-01T12:00:00Z");

    private static RequestRecord req(int status, String requested, String answered, Long in, Long out, String errorType,
            String message, Instant retryAt, String problem) {
        boolean ok = status >= 200 && status < 300;
        boolean measured = ok ? in != null : problem == null;
        return new RequestRecord(AT, "POST", "/v1/messages", status, 10, 5L, true, requested, answered, measured, in, out,
                ok && in != null ? 0L : null, ok && in != null ? 0L : null, errorType, message, Map.of(), retryAt, retryAt != null, problem,
                10, 10);
    }

    private static RequestRecord limited(Map<String, String> headers, Instant retryAt, boolean fromHeader) {
        return new RequestRecord(AT, "POST", "/v1/chat/completions", 429, 10, 5L, true, "m", null, true, null, null, null,
                null, "rate_limit_error", "Please try again in 20s.", headers, retryAt, fromHeader, null, 10, 10);
    }

    private static MeterReport report(List<String> answered, List<String> forRun, RequestRecord... rs) {
        TokenUsage t = rs[0].input() != null
                ? new TokenUsage(rs[0].input(), rs[0].output(), 0L, 0L, TokenUsage.Source.METERED) : TokenUsage.unmeasured();
        return new MeterReport(rs.length, rs.length, rs.length, t, answered, forRun, rs[rs.length - 1], rs[rs.length - 1],
                null);
    }

    private static HarnessResult adapter(Outcome o) {
        return HarnessResult.builder(o, "m").tokens(TokenUsage.ofAdapter(0L, 0L, 0L, 0L))
                .cost(new Cost(BigDecimal.ZERO, Cost.Source.CLI_ESTIMATE, null)).build();
    }

    @Test
    void anAmbiguousErrorTakesTheLastModelRequestsClassAndRetryTime() {
        Instant retry = AT.plusSeconds(30);
        RequestRecord limited = req(429, "m", null, null, null, "rate_limit_error", "slow down", retry, null);
        WireTruth.Applied a = WireTruth.apply(adapter(Outcome.ERROR), report(List.of(), List.of(), limited), "m", null,
                Termination.exited());
        assertThat(a.result().outcome()).isEqualTo(Outcome.RATE_LIMITED);
        assertThat(a.result().retryAt()).isEqualTo(retry);
        assertThat(a.result().tokens().isMeasured()).as("the adapter's zeros give way to unmeasured").isFalse();
        assertThat(a.result().cost()).as("a $0 stand-in is dropped").isNull();

        RequestRecord overflow = req(400, "m", null, null, null, "invalid_request_error",
                "prompt is too long: 250000 tokens > 200000 maximum", null, null);
        assertThat(WireTruth.apply(adapter(Outcome.NO_OP), report(List.of(), List.of(), overflow), "m", null,
                Termination.exited()).result().outcome()).isEqualTo(Outcome.CONTEXT_OVERFLOW);
        RequestRecord auth = req(401, "m", null, null, null, "authentication_error", "invalid x-api-key", null, null);
        assertThat(WireTruth.apply(adapter(Outcome.ERROR), report(List.of(), List.of(), auth), "m", null,
                Termination.exited()).result().outcome()).isEqualTo(Outcome.AUTH);
        RequestRecord googleRefusal = req(400, "m", null, null, null, "INVALID_ARGUMENT",
                "API key not valid. Please pass a valid API key.", null, null);
        assertThat(WireTruth.apply(adapter(Outcome.ERROR), report(List.of(), List.of(), googleRefusal), "m", null,
                Termination.exited()).result().outcome()).as("Google's 400 for a key it does not know").isEqualTo(Outcome.AUTH);
    }

    @Test
    void aRetryTimeFromTheHeadersWinsOverTheClisWordsAndTheClisOverTheBodys() {
        Instant header = AT.plusSeconds(3);
        Instant printed = AT.plusSeconds(20);
        Instant body = AT.plusSeconds(40);
        HarnessResult cliSaid = HarnessResult.builder(Outcome.RATE_LIMITED, "m").retryAt(printed).build();
        RequestRecord byHeader = limited(Map.of("retry-after", "3"), header, true);
        RequestRecord byBody = limited(Map.of(), body, false);

        assertThat(WireTruth.apply(cliSaid, report(List.of(), List.of(), byHeader), "m", null, Termination.exited())
                .result().retryAt()).as("retry-after: 3 over the CLI's 20 s").isEqualTo(header);
        assertThat(WireTruth.apply(cliSaid, report(List.of(), List.of(), byBody), "m", null, Termination.exited())
                .result().retryAt()).as("the CLI's words over the body's").isEqualTo(printed);
        HarnessResult cliSaidNothing = HarnessResult.builder(Outcome.RATE_LIMITED, "m").build();
        assertThat(WireTruth.apply(cliSaidNothing, report(List.of(), List.of(), byBody), "m", null, Termination.exited())
                .result().retryAt()).as("the body's when nothing else says").isEqualTo(body);
    }

    @Test
    void aStructuredHarnesssNoOpStandsWhereAnOpaqueOnesIsRefinedByTheWire() {
        RequestRecord failed = req(500, "m", null, null, null, "api_error", "internal error", null, null);
        MeterReport r = report(List.of(), List.of(), failed);
        assertThat(WireTruth.apply(adapter(Outcome.NO_OP), r, "m", null, Termination.exited(),
                dev.harness4j.api.CompletionMode.OPAQUE).result().outcome()).isEqualTo(Outcome.TRANSIENT);
        assertThat(WireTruth.apply(adapter(Outcome.NO_OP), r, "m", null, Termination.exited(),
                dev.harness4j.api.CompletionMode.STRUCTURED).result().outcome()).isEqualTo(Outcome.NO_OP);
        assertThat(WireTruth.apply(adapter(Outcome.ERROR), r, "m", null, Termination.exited(),
                dev.harness4j.api.CompletionMode.STRUCTURED).result().outcome()).isEqualTo(Outcome.TRANSIENT);
    }

    @Test
    void aSpecificAdapterClassAndAGuardStopWin() {
        RequestRecord limited = req(429, "m", null, null, null, "rate_limit_error", "slow down", AT, null);
        assertThat(WireTruth.apply(adapter(Outcome.CONTEXT_OVERFLOW), report(List.of(), List.of(), limited), "m", null,
                Termination.exited()).result().outcome()).isEqualTo(Outcome.CONTEXT_OVERFLOW);
        assertThat(WireTruth.apply(adapter(Outcome.TIMEOUT), report(List.of(), List.of(), limited), "m", null,
                new Termination(Termination.Kind.INACTIVITY_TIMEOUT, "idle")).result().outcome())
                .isEqualTo(Outcome.TIMEOUT);
    }

    @Test
    void meteredTokensArePricedAndABackgroundModelOfTheClisChoosingIsNoSubstitution() {
        RequestRecord main = req(200, "claude-sonnet-4-5", "claude-sonnet-4-5-20250929", 1_000_000L, 100_000L, null,
                null, null, null);
        WireTruth.Applied a = WireTruth.apply(adapter(Outcome.COMPLETED),
                report(List.of("claude-haiku-4-5-20251001", "claude-sonnet-4-5-20250929"),
                        List.of("claude-sonnet-4-5-20250929"), main),
                "claude-sonnet-4-5", ModelPrice.of("3", "15"), Termination.exited());
        assertThat(a.result().servedModel().verdict()).isEqualTo(ServedModel.Verdict.MATCH);
        assertThat(a.result().servedModel().answered()).hasSize(2);
        assertThat(a.result().cost().source()).isEqualTo(Cost.Source.METERED_PRICE);
        assertThat(a.result().cost().usd()).isEqualByComparingTo("4.5");
        assertThat(a.notes()).contains("metered: measured 1 of 1 model requests");

        WireTruth.Applied other = WireTruth.apply(adapter(Outcome.COMPLETED),
                report(List.of("gpt-4o"), List.of(), main), "claude-sonnet-4-5", null, Termination.exited());
        assertThat(other.result().servedModel().verdict()).as("the CLI never asked for the run's model")
                .isEqualTo(ServedModel.Verdict.MISMATCH);
        assertThat(other.result().cost().source()).as("no price: the adapter's estimate stays")
                .isEqualTo(Cost.Source.CLI_ESTIMATE);
    }
}
