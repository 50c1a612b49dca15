package dev.harness4j.meter.internal.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.TokenUsage;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The settle rule on scripted reads: two consecutive agreeing reads, a budget, the best snapshot kept. */
class SpendSettleTest {
    private static final Duration INTERVAL = Duration.ofMillis(1);
    private static final Duration BUDGET = Duration.ofMinutes(1);

    private static SpendRow row(String id, long prompt, long completion, String spend) {
        return new SpendRow(id, "m", prompt, completion, null, null, new BigDecimal(spend));
    }

    private static SpendSnapshot snap(SpendRow... rows) {
        return new SpendSnapshot(List.of(rows));
    }

    /** Answers the scripted reads in order, then repeats the last. */
    private static SpendSettle.Poll reads(List<Object> answers) {
        List<Object> left = new ArrayList<>(answers);
        return () -> {
            Object next = left.size() > 1 ? left.remove(0) : left.get(0);
            if (next instanceof GatewayException e) {
                throw e;
            }
            return (SpendSnapshot) next;
        };
    }

    @Test
    void aFirstPartialReadIsNotTakenTwoAgreeingReadsAre() throws Exception {
        SpendSnapshot partial = snap(row("a", 100, 20, "0.00014"));
        SpendSnapshot full = snap(row("a", 100, 20, "0.00014"), row("b", 50, 10, "0.00007"));

        SpendSettle.Result r = SpendSettle.settle(reads(List.of(partial, full, full)), BUDGET, INTERVAL, false);

        assertThat(r.settled()).isTrue();
        assertThat(r.rowsPerPoll()).containsExactly(1, 2, 2);
        assertThat(r.best().tokens()).isEqualTo(new TokenUsage(150L, 30L, null, null, TokenUsage.Source.GATEWAY));
        assertThat(r.best().spend()).isEqualByComparingTo("0.00021");
    }

    @Test
    void emptyReadsNeverSettleWhenTheMeterSawModelRequests() throws Exception {
        SpendSnapshot full = snap(row("a", 100, 20, "0.00014"));

        SpendSettle.Result r = SpendSettle.settle(reads(List.of(SpendSnapshot.EMPTY, SpendSnapshot.EMPTY, full, full)),
                BUDGET, INTERVAL, false);

        assertThat(r.settled()).isTrue();
        assertThat(r.rowsPerPoll()).containsExactly(0, 0, 1, 1);
    }

    @Test
    void emptyReadsSettleWhenNoRowIsExpected() throws Exception {
        SpendSettle.Result r = SpendSettle.settle(reads(List.of(SpendSnapshot.EMPTY)), BUDGET, INTERVAL, true);

        assertThat(r.settled()).isTrue();
        assertThat(r.polls()).isEqualTo(2);
    }

    @Test
    void aSpentBudgetKeepsTheSnapshotWithTheMostRows() throws Exception {
        SpendSnapshot one = snap(row("a", 1, 1, "0.1"));
        SpendSnapshot two = snap(row("a", 1, 1, "0.1"), row("b", 1, 1, "0.1"));
        List<Object> growing = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) { // never two equal reads in a row
            growing.add(i % 2 == 0 ? two : one);
        }

        SpendSettle.Result r = SpendSettle.settle(reads(growing), Duration.ofMillis(50), INTERVAL, false);

        assertThat(r.settled()).isFalse();
        assertThat(r.best()).isEqualTo(two);
        assertThat(r.polls()).isGreaterThan(1);
    }

    @Test
    void aFailedReadBreaksThePairAndARefusedKeyStopsReading() throws Exception {
        SpendSnapshot full = snap(row("a", 1, 1, "0.1"));
        GatewayException flaky = new GatewayException("GET /spend/logs: HTTP 500", true);

        SpendSettle.Result r = SpendSettle.settle(reads(List.of(full, flaky, full, full)), BUDGET, INTERVAL, false);
        assertThat(r.settled()).isTrue();
        assertThat(r.rowsPerPoll()).containsExactly(1, -1, 1, 1);
        assertThat(r.lastError()).contains("HTTP 500");

        GatewayException refused = new GatewayException("GET /spend/logs: HTTP 401", false);
        SpendSettle.Result stopped = SpendSettle.settle(reads(List.of(refused)), BUDGET, INTERVAL, false);
        assertThat(stopped.settled()).isFalse();
        assertThat(stopped.best()).isNull();
        assertThat(stopped.polls()).isEqualTo(1);
    }

    @Test
    void cacheTokensComeOutOfThePromptAndRowsCountOncePerRequest() {
        SpendSnapshot s = snap(new SpendRow("a", "claude-x", 1000L, 50L, 600L, 300L, new BigDecimal("0.01")),
                new SpendRow("a", "claude-x", 1000L, 50L, 600L, 300L, new BigDecimal("0.01")),
                new SpendRow("b", "claude-y", 10L, 5L, null, null, null));

        assertThat(s.rowCount()).isEqualTo(2);
        assertThat(s.tokens()).isEqualTo(new TokenUsage(110L, 55L, 600L, 300L, TokenUsage.Source.GATEWAY));
        assertThat(s.spend()).isEqualByComparingTo("0.01");
        assertThat(s.models()).containsExactly("claude-x", "claude-y");
        assertThat(SpendSnapshot.EMPTY.tokens().isMeasured()).isFalse();
    }

    @Test
    void aDisagreementBeyondTheToleranceIsFlagged() {
        TokenUsage gateway = new TokenUsage(100L, 20L, null, null, TokenUsage.Source.GATEWAY);
        TokenUsage close = new TokenUsage(99L, 20L, null, null, TokenUsage.Source.METERED);
        TokenUsage far = new TokenUsage(60L, 20L, null, null, TokenUsage.Source.METERED);

        assertThat(GatewayTruth.compare(gateway, close, new BigDecimal("0.02")).get("disagree")).isEqualTo(false);
        var c = GatewayTruth.compare(gateway, far, new BigDecimal("0.02"));
        assertThat(c.get("disagree")).isEqualTo(true);
        assertThat((String) c.get("detail")).contains("prompt tokens: gateway 100, metered 60");
    }
}
