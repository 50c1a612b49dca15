package dev.harness4j.meter.internal;

import dev.harness4j.api.CompletionMode;
import dev.harness4j.api.Cost;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.support.Outcomes;
import dev.harness4j.api.ServedModel;
import dev.harness4j.api.Termination;
import dev.harness4j.api.TokenUsage;
import dev.harness4j.core.provider.ModelPrice;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Puts what the wire showed into a run's result. Pure functions.
 *
 * <ul>
 *   <li>Tokens: the metered sums whenever the run made a model request through the meter (each
 *       figure absent when a request lacked it, so unmeasured rather than 0); the adapter's only
 *       when no model request went through the meter.
 *   <li>Served model: the verdict of {@link ModelMatch} on the models that answered requests for
 *       the run's model (a background request the CLI made for another model of its own choosing
 *       is listed but no substitution); mismatch when no request asked for the run's model.
 *   <li>Cost: metered tokens × the model's price ({@code metered-price}); without a price or
 *       without metered input and output, the adapter's (a CLI estimate), or none.
 *   <li>Outcome: when the process exited by itself and the adapter said only {@code error} (or,
 *       for an {@link CompletionMode#OPAQUE} harness, {@code no-op}: exit 0 with nothing changed
 *       is what some CLIs do after a failed request; a {@link CompletionMode#STRUCTURED} harness's
 *       {@code no-op} comes from a clean result envelope and stands), the last model request decides: 429 rate-limited (with its retry time),
 *       401/403 and a refused key ({@link Outcomes#refusesKey}: Google's 400 {@code API_KEY_INVALID}) auth,
 *       400/413 with context-length wording context-overflow, 5xx, a broken stream
 *       or an unreachable endpoint transient. Any other adapter outcome stands.
 *   <li>Retry time of a rate-limited run whose last model request was a 429: the time its
 *       headers gave ({@code retry-after} and the rate-limit ones, the most trusted source), else
 *       the adapter's (what the CLI printed), else the time the 429's body named.
 * </ul>
 */
public final class WireTruth {
    private WireTruth() {}

    /** The result and the notes to add to the run. */
    public record Applied(HarnessResult result, List<String> notes) {}

    /**
     * Applies the report.
     *
     * @param adapter the adapter's result (the guard's verdict already imposed)
     * @param report what the wire showed
     * @param model the model the run asked for
     * @param price the model's price, or {@code null}
     * @param termination how the process ended, or {@code null} when it never started
     */
    public static Applied apply(HarnessResult adapter, MeterReport report, String model, ModelPrice price,
            Termination termination) {
        return apply(adapter, report, model, price, termination, CompletionMode.OPAQUE);
    }

    /**
     * Applies the report for a harness of the given completion mode.
     *
     * @param adapter the adapter's result (the guard's verdict already imposed)
     * @param report what the wire showed
     * @param model the model the run asked for
     * @param price the model's price, or {@code null}
     * @param termination how the process ended, or {@code null} when it never started
     * @param mode how the harness reports its end: a structured one's {@code no-op} is not refined
     */
    public static Applied apply(HarnessResult adapter, MeterReport report, String model, ModelPrice price,
            Termination termination, CompletionMode mode) {
        boolean ambiguousNoOp = mode == CompletionMode.OPAQUE;
        List<String> notes = new ArrayList<>();
        TokenUsage tokens = adapter.tokens();
        Cost cost = adapter.cost();
        ServedModel served = adapter.servedModel();
        Outcome outcome = adapter.outcome();
        String reason = adapter.reason();
        java.time.Instant retryAt = adapter.retryAt();
        if (report.modelRequests() == 0) {
            if (termination != null && termination.kind() != Termination.Kind.START_FAILED) {
                notes.add("metered tokens unmeasured: no model request went through the meter (the harness may not use "
                        + "the provider's base URL)");
            }
        } else {
            tokens = report.tokens(); // the wire's, even unmeasured: the adapter's figures stay in meta.json beside them
            if (cost != null && cost.usd().signum() == 0 && !tokens.isMeasured()) {
                cost = null; // a CLI's $0 for traffic nobody measured is a stand-in, not a figure
            }
            notes.add("metered: measured " + report.measuredRequests() + " of " + report.modelRequests()
                    + " model requests");
            if (!report.answeredForRunModel().isEmpty()) {
                ServedModel.Verdict v = ModelMatch.verdict(model, report.answeredForRunModel()).verdict();
                served = new ServedModel(model, report.answered(), v);
            } else if (!report.answered().isEmpty()) { // the CLI never asked for the run's model
                served = new ServedModel(model, report.answered(), ServedModel.Verdict.MISMATCH);
                notes.add("served model: no model request asked for " + model + "; the CLI asked for "
                        + report.answered());
            }
            if (price != null && tokens.source() == TokenUsage.Source.METERED) {
                Optional<BigDecimal> usd = price.cost(tokens);
                if (usd.isPresent()) {
                    cost = new Cost(usd.get(), Cost.Source.METERED_PRICE, report.measuredRequests() < report.modelRequests()
                            ? "priced " + report.measuredRequests() + " of " + report.modelRequests() + " model requests"
                            : null);
                }
            }
            RequestRecord last = report.lastModel();
            boolean exited = termination != null && termination.kind() == Termination.Kind.EXITED;
            Outcome wire = last == null ? null : classify(last);
            if (exited && wire != null && (outcome == Outcome.ERROR || ambiguousNoOp && outcome == Outcome.NO_OP)) {
                reason = wireReason(last, wire);
                outcome = wire;
                retryAt = wire == Outcome.RATE_LIMITED ? last.retryAt() : null;
            } else if (outcome == Outcome.RATE_LIMITED && last != null && last.status() == 429 && last.retryAt() != null
                    && (retryAt == null || last.retryAtFromHeader())) {
                retryAt = last.retryAt(); // a header's time over the CLI's words; the CLI's words over the body's
            }
        }
        HarnessResult r = new HarnessResult(outcome, reason, tokens, cost, served, adapter.summary(),
                adapter.phaseReport(), retryAt, adapter.sessionId());
        return new Applied(r, notes);
    }

    /** The outcome the last model request speaks for, or null when it went well. */
    static Outcome classify(RequestRecord r) {
        String problem = r.upstreamError();
        if (problem != null && (problem.startsWith("unreachable") || problem.startsWith("reset")
                || problem.startsWith("timeout"))) {
            return Outcome.TRANSIENT;
        }
        int s = r.status();
        if (s == 400 && Outcomes.refusesKey(s, r.errorMessage())) { // Google's answer to a key it does not know
            return Outcome.AUTH;
        }
        if ((s == 400 || s == 413) && Outcomes.mentionsContextOverflow(r.errorMessage())) {
            return Outcome.CONTEXT_OVERFLOW;
        }
        if (s == 400 || s == 413) {
            return Outcomes.mentionsContextOverflow(r.errorType()) ? Outcome.CONTEXT_OVERFLOW : null;
        }
        if (s == 429 || s == 401 || s == 403 || s >= 500) {
            return Outcomes.fromHttpStatus(s).orElse(null);
        }
        return null;
    }

    private static String wireReason(RequestRecord r, Outcome o) {
        String what = r.upstreamError() != null ? r.upstreamError() : "HTTP " + r.status()
                + (r.errorMessage() != null ? ": " + r.errorMessage() : "");
        return "the last model request ended " + what + " (" + o.wireName() + ", from the wire)";
    }
}
