package dev.harness4j.api;

import java.time.Instant;
import java.util.Objects;

/**
 * What an adapter read from one execution: the pure output of {@link
 * Harness#interpret(Execution)}.
 *
 * @param outcome how the run ended
 * @param reason why, in words, for anything but a plain success; or {@code null}
 * @param tokens tokens used; {@link TokenUsage#unmeasured()} when the CLI did not say
 * @param cost the cost, or {@code null} when unmeasured (never a zero stand-in)
 * @param servedModel which model answered
 * @param summary the agent's final message, or {@code null}
 * @param phaseReport the phase report the adapter found, or {@code null} (core then derives one)
 * @param retryAt for {@code rate-limited}: when the limit resets, or {@code null} when unknown
 */
public record HarnessResult(
        Outcome outcome,
        String reason,
        TokenUsage tokens,
        Cost cost,
        ServedModel servedModel,
        String summary,
        PhaseReport phaseReport,
        Instant retryAt) {

    public HarnessResult {
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(tokens, "tokens");
        Objects.requireNonNull(servedModel, "servedModel");
    }

    public HarnessResult withOutcome(Outcome value, String why) {
        return new HarnessResult(value, why, tokens, cost, servedModel, summary, phaseReport, retryAt);
    }

    public HarnessResult withTokens(TokenUsage value) {
        return new HarnessResult(outcome, reason, value, cost, servedModel, summary, phaseReport, retryAt);
    }

    public HarnessResult withCost(Cost value) {
        return new HarnessResult(outcome, reason, tokens, value, servedModel, summary, phaseReport, retryAt);
    }

    public HarnessResult withPhaseReport(PhaseReport value) {
        return new HarnessResult(outcome, reason, tokens, cost, servedModel, summary, value, retryAt);
    }

    /** A builder starting from an outcome; everything else defaults to unmeasured/absent. */
    public static Builder builder(Outcome outcome, String requestedModel) {
        return new Builder(outcome, requestedModel);
    }

    /** Builds a {@link HarnessResult}. */
    public static final class Builder {
        private final Outcome outcome;
        private String reason;
        private TokenUsage tokens = TokenUsage.unmeasured();
        private Cost cost;
        private ServedModel servedModel;
        private String summary;
        private PhaseReport phaseReport;
        private Instant retryAt;

        private Builder(Outcome outcome, String requestedModel) {
            this.outcome = Objects.requireNonNull(outcome, "outcome");
            this.servedModel = ServedModel.unmeasured(Objects.requireNonNull(requestedModel, "requestedModel"));
        }

        public Builder reason(String v) { this.reason = v; return this; }
        public Builder tokens(TokenUsage v) { this.tokens = Objects.requireNonNull(v, "tokens"); return this; }
        public Builder cost(Cost v) { this.cost = v; return this; }
        public Builder servedModel(ServedModel v) { this.servedModel = Objects.requireNonNull(v, "servedModel"); return this; }
        public Builder summary(String v) { this.summary = v; return this; }
        public Builder phaseReport(PhaseReport v) { this.phaseReport = v; return this; }
        public Builder retryAt(Instant v) { this.retryAt = v; return this; }

        public HarnessResult build() {
            return new HarnessResult(outcome, reason, tokens, cost, servedModel, summary, phaseReport, retryAt);
        }
    }
}
