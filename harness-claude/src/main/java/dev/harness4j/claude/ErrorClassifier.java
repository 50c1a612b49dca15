package dev.harness4j.claude;

import dev.harness4j.api.Outcome;
import dev.harness4j.api.support.Outcomes;
import java.util.Locale;

/**
 * Classifies an error envelope ({@code is_error: true}) into the outcome a caller acts on. Pure.
 *
 * <p>Order: the subtype's own limits ({@code error_max_turns}, {@code error_max_budget_usd}) and
 * {@code terminal_reason}; then an exceeded context window (which Claude Code may report as a 400
 * or with no status); then {@code api_error_status} by {@link Outcomes#fromHttpStatus}; then
 * the words of the error text; anything left is {@code error}.
 */
final class ErrorClassifier {
    private ErrorClassifier() {}

    static Outcome classify(ResultEnvelope e) {
        String subtype = lower(e.subtype());
        String terminal = lower(e.terminalReason());
        if (subtype.equals("error_max_turns") || terminal.equals("max_turns")) {
            return Outcome.MAX_TURNS;
        }
        if (subtype.startsWith("error_max_budget") || terminal.contains("budget")) {
            return Outcome.BUDGET;
        }
        String text = e.errorText();
        Integer status = e.apiErrorStatus();
        if (terminal.equals("prompt_too_long") || Outcomes.mentionsContextOverflow(text)
                && (status == null || status == 400 || status == 413)) {
            return Outcome.CONTEXT_OVERFLOW;
        }
        if (status != null) {
            Outcome byStatus = Outcomes.fromHttpStatus(status).orElse(null);
            if (byStatus != null) {
                return byStatus;
            }
        }
        return fromText(text);
    }

    /** Classifies by the error text alone, for envelopes without an HTTP status. */
    static Outcome fromText(String text) {
        String t = lower(text);
        if (t.contains("rate limit") || t.contains("rate_limit") || t.contains("usage limit")
                || t.contains("api error: 429") || t.contains("too many requests")) {
            return Outcome.RATE_LIMITED;
        }
        if (t.contains("invalid api key") || t.contains("authentication") || t.contains("api error: 401")
                || t.contains("api error: 403") || t.contains("/login") || t.contains("permission_error")) {
            return Outcome.AUTH;
        }
        if (t.contains("overloaded") || t.contains("api error: 5") || t.contains("timed out")
                || t.contains("timeout") || t.contains("connection error") || t.contains("econnreset")
                || t.contains("econnrefused") || t.contains("socket hang up") || t.contains("internal server error")) {
            return Outcome.TRANSIENT;
        }
        if (t.contains("api error: 4") || t.contains("invalid_request")) {
            return Outcome.BAD_REQUEST;
        }
        return Outcome.ERROR;
    }

    private static String lower(String s) {
        return s == null ? "" : s.toLowerCase(Locale.ROOT);
    }
}
