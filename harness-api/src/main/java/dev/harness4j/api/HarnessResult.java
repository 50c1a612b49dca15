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
 * @param phaseReport the phase report: from the adapter, {@code null} when it found none (the runner's record
 *     then carries the one core settled on: the agent's report file, a summarizer's, or git's)
 * @param retryAt for {@code rate-limited}: when the limit resets, or {@code null} when unknown
 * @param sessionId the agent's own session id, as the CLI printed it (Claude Code's {@code
 *     session_id}, say), or {@code null}: a {@linkplain Harness#supportsFollowUp() follow-up} run
 *     continues that session
 */
public record HarnessResult(
        Outcome outcome,
        String reason,
        TokenUsage tokens,
        Cost cost,
        ServedModel servedModel,
        String summary,
        PhaseReport phaseReport,
        Instant retryAt,
        String sessionId) {

    /**
     * Checks the required parts.
     *
     * @param outcome how the run ended
     * @param reason why, in words, or {@code null}
     * @param tokens tokens used
     * @param cost the cost, or {@code null} when unmeasured
     * @param servedModel which model answered
     * @param summary the agent's final message, or {@code null}
     * @param phaseReport the phase report the adapter found, or {@code null}
     * @param retryAt for {@code rate-limited}: when the limit resets, or {@code null}
     * @param sessionId the agent's session id, or {@code null}
     */
    public HarnessResult {
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(tokens, "tokens");
        Objects.requireNonNull(servedModel, "servedModel");
    }

    /**
     * A result without a session id (the constructor before {@link #sessionId()} existed).
     *
     * @param outcome how the run ended
     * @param reason why, in words, or {@code null}
     * @param tokens tokens used
     * @param cost the cost, or {@code null} when unmeasured
     * @param servedModel which model answered
     * @param summary the agent's final message, or {@code null}
     * @param phaseReport the phase report the adapter found, or {@code null}
     * @param retryAt for {@code rate-limited}: when the limit resets, or {@code null}
     */
    public HarnessResult(Outcome outcome, String reason, TokenUsage tokens, Cost cost, ServedModel servedModel,
            String summary, PhaseReport phaseReport, Instant retryAt) {
        this(outcome, reason, tokens, cost, servedModel, summary, phaseReport, retryAt, null);
    }

    /**
     * A copy with another outcome and reason.
     *
     * @param value the outcome
     * @param why the reason, or {@code null}
     * @return the copy
     */
    public HarnessResult withOutcome(Outcome value, String why) {
        return new HarnessResult(value, why, tokens, cost, servedModel, summary, phaseReport, retryAt, sessionId);
    }

    /**
     * A copy with other token figures.
     *
     * @param value the token usage
     * @return the copy
     */
    public HarnessResult withTokens(TokenUsage value) {
        return new HarnessResult(outcome, reason, value, cost, servedModel, summary, phaseReport, retryAt, sessionId);
    }

    /**
     * A copy with another cost.
     *
     * @param value the cost, or {@code null} when unmeasured
     * @return the copy
     */
    public HarnessResult withCost(Cost value) {
        return new HarnessResult(outcome, reason, tokens, value, servedModel, summary, phaseReport, retryAt, sessionId);
    }

    /**
     * A copy with another phase report.
     *
     * @param value the phase report, or {@code null}
     * @return the copy
     */
    public HarnessResult withPhaseReport(PhaseReport value) {
        return new HarnessResult(outcome, reason, tokens, cost, servedModel, summary, value, retryAt, sessionId);
    }

    /**
     * A builder starting from an outcome; everything else defaults to unmeasured/absent.
     *
     * @param outcome how the run ended
     * @param requestedModel the model the run asked for (the served model starts unmeasured for it)
     * @return a new builder
     */
    public static Builder builder(Outcome outcome, String requestedModel) {
        return new Builder(outcome, requestedModel);
    }

    /** Builds a {@link HarnessResult}. */
    public static final class Builder {
        private Outcome outcome;
        private String reason;
        private TokenUsage tokens = TokenUsage.unmeasured();
        private Cost cost;
        private ServedModel servedModel;
        private String summary;
        private PhaseReport phaseReport;
        private Instant retryAt;
        private String sessionId;

        private Builder(Outcome outcome, String requestedModel) {
            this.outcome = Objects.requireNonNull(outcome, "outcome");
            this.servedModel = ServedModel.unmeasured(Objects.requireNonNull(requestedModel, "requestedModel"));
        }

        /**
         * Replaces the outcome given to {@link HarnessResult#builder}, e.g. once an error has been
         * classified from the output.
         *
         * @param v the outcome
         * @return this builder
         */
        public Builder outcome(Outcome v) { this.outcome = Objects.requireNonNull(v, "outcome"); return this; }
        /**
         * Sets {@link HarnessResult#reason()}.
         *
         * @param v the reason, or {@code null}
         * @return this builder
         */
        public Builder reason(String v) { this.reason = v; return this; }
        /**
         * Sets {@link HarnessResult#tokens()}.
         *
         * @param v the token usage
         * @return this builder
         */
        public Builder tokens(TokenUsage v) { this.tokens = Objects.requireNonNull(v, "tokens"); return this; }
        /**
         * Sets {@link HarnessResult#cost()}.
         *
         * @param v the cost, or {@code null} when unmeasured
         * @return this builder
         */
        public Builder cost(Cost v) { this.cost = v; return this; }
        /**
         * Sets {@link HarnessResult#servedModel()}.
         *
         * @param v which model answered
         * @return this builder
         */
        public Builder servedModel(ServedModel v) { this.servedModel = Objects.requireNonNull(v, "servedModel"); return this; }
        /**
         * Sets {@link HarnessResult#summary()}.
         *
         * @param v the agent's final message, or {@code null}
         * @return this builder
         */
        public Builder summary(String v) { this.summary = v; return this; }
        /**
         * Sets {@link HarnessResult#phaseReport()}.
         *
         * @param v the phase report, or {@code null}
         * @return this builder
         */
        public Builder phaseReport(PhaseReport v) { this.phaseReport = v; return this; }
        /**
         * Sets {@link HarnessResult#retryAt()}.
         *
         * @param v when the rate limit resets, or {@code null}
         * @return this builder
         */
        public Builder retryAt(Instant v) { this.retryAt = v; return this; }

        /**
         * Sets the agent's own session id, as the CLI printed it, for a follow-up run to continue.
         *
         * @param v the session id, or {@code null}
         * @return this builder
         */
        public Builder sessionId(String v) { this.sessionId = v; return this; }

        /**
         * Builds the result.
         *
         * @return the result
         */
        public HarnessResult build() {
            return new HarnessResult(outcome, reason, tokens, cost, servedModel, summary, phaseReport, retryAt, sessionId);
        }
    }
}
