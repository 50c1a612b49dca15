package dev.harness4j.api.support;

import dev.harness4j.api.Execution;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.Termination;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Shared outcome rules adapters build on. Pure functions. */
public final class Outcomes {
    private Outcomes() {}

    /**
     * The outcome a guard or start failure imposes regardless of what the harness printed:
     * {@code timeout} for the guard's time limits, {@code budget} for its budget limits, {@code
     * rate-limited} for its stop after too many 429s in a row, {@code auth} for its stop at a refused
     * key, {@code transient} for its stop after too many failed model requests in a row, {@code bailed} for bail and shutdown, {@code error}
     * when the process never started; empty when the process exited by itself.
     *
     * @param termination how the process ended
     * @return the imposed outcome; empty when the process exited by itself
     */
    public static Optional<Outcome> fromTermination(Termination termination) {
        return switch (termination.kind()) {
            case INACTIVITY_TIMEOUT, MAX_RUNTIME -> Optional.of(Outcome.TIMEOUT);
            case BAILED, SHUTDOWN -> Optional.of(Outcome.BAILED);
            case START_FAILED -> Optional.of(Outcome.ERROR);
            case BUDGET -> Optional.of(Outcome.BUDGET);
            case RATE_LIMITED -> Optional.of(Outcome.RATE_LIMITED);
            case AUTH_REFUSED -> Optional.of(Outcome.AUTH);
            case ENDPOINT_FAILING -> Optional.of(Outcome.TRANSIENT);
            case EXITED -> Optional.empty();
        };
    }

    /**
     * The rule for harnesses without a result envelope: a stopped run is {@code timeout} or
     * {@code bailed}; exit 0 and ({@code headMoved || dirty}) is {@code completed}; exit 0 and
     * nothing changed is {@code no-op}; any other exit is {@code error}.
     *
     * @param execution what the process did
     * @return the outcome by that rule
     */
    public static Outcome opaque(Execution execution) {
        Optional<Outcome> imposed = fromTermination(execution.termination());
        if (imposed.isPresent()) {
            return imposed.get();
        }
        if (!execution.exitedCleanly()) {
            return Outcome.ERROR;
        }
        return execution.changes().changed() ? Outcome.COMPLETED : Outcome.NO_OP;
    }

    /**
     * Classifies an HTTP status an endpoint answered with: 429 rate-limited, 401/403 auth,
     * 5xx and 529 transient, 413 context-overflow, other 4xx bad-request; empty for
     * anything else.
     *
     * @param status the HTTP status code
     * @return the outcome class; empty for a status that is no error
     */
    public static Optional<Outcome> fromHttpStatus(int status) {
        if (status == 429) {
            return Optional.of(Outcome.RATE_LIMITED);
        }
        if (status == 401 || status == 403) {
            return Optional.of(Outcome.AUTH);
        }
        if (status == 413) {
            return Optional.of(Outcome.CONTEXT_OVERFLOW);
        }
        if (status >= 500 && status <= 599) {
            return Optional.of(Outcome.TRANSIENT);
        }
        if (status >= 400 && status <= 499) {
            return Optional.of(Outcome.BAD_REQUEST);
        }
        return Optional.empty();
    }

    /**
     * Whether an endpoint's error answer refuses the credential: HTTP 401 and 403 as everywhere,
     * and Google's 400 {@code INVALID_ARGUMENT} for a key it does not know ({@code API_KEY_INVALID},
     * "API key not valid"). One rule for every reader of an answer: the provider catalogue's probe,
     * the meter and the adapters.
     *
     * @param status the HTTP status code
     * @param body the answer's body or the error text quoting it, or {@code null}
     * @return whether the answer refuses the key
     */
    public static boolean refusesKey(int status, String body) {
        return status == 401 || status == 403
                || (status == 400 && body != null && (body.contains("API_KEY_INVALID") || body.contains("API key not valid")));
    }

    /**
     * Classifies an endpoint's error answer by its status and what its body says: a refused key
     * ({@link #refusesKey}) is {@code auth} whatever the status, context-length wording on a 400
     * or 413 is {@code context-overflow}, anything else is {@link #fromHttpStatus}'s class.
     *
     * @param status the HTTP status code
     * @param body the answer's body or the error text quoting it, or {@code null}
     * @return the outcome class; empty for a status that is no error
     */
    public static Optional<Outcome> fromHttpAnswer(int status, String body) {
        if (refusesKey(status, body)) {
            return Optional.of(Outcome.AUTH);
        }
        if ((status == 400 || status == 413) && mentionsContextOverflow(body)) {
            return Optional.of(Outcome.CONTEXT_OVERFLOW);
        }
        return fromHttpStatus(status);
    }

    /**
     * Whether the text reports a context-window overflow, in the wordings of Anthropic, OpenAI,
     * Gemini, OpenRouter, LiteLLM and the CLIs.
     *
     * @param text the text, or {@code null}
     * @return whether the text reports an overflow
     */
    public static boolean mentionsContextOverflow(String text) {
        return containsAny(text, "context length", "context window", "context_length", "prompt is too long",
                "maximum context", "too many tokens", "contextwindowexceeded", "context overflow",
                "input is too long", "exceeds the context", "input token count exceeds",
                "exceeds the maximum number of tokens");
    }

    /**
     * Whether the text reports a rate limit ({@code 429}, "too many requests", "rate limit",
     * "resource exhausted", per-minute limits) or a quota that ran out ("insufficient_quota",
     * "exceeded your current quota", "quota exceeded", "usage limit"): both end {@link
     * Outcome#RATE_LIMITED}, the quota's reset (when the text names one, see {@link #resetAt})
     * as the retry time.
     *
     * @param text the text, or {@code null}
     * @return whether the text reports a rate limit
     */
    public static boolean mentionsRateLimit(String text) {
        return containsAny(text, "rate limit", "rate_limit", "ratelimit", "too many requests", "resource_exhausted",
                "resource exhausted", "requests per minute", "tokens per minute", "throttl", "usage limit", "insufficient_quota",
                "exceeded your current quota", "quota exceeded", "quota_exceeded", "exceeded quota", "out of quota");
    }

    /**
     * Whether the text reports a rejected credential ("invalid api key", "authentication_error",
     * "unauthorized", "not logged in", ...).
     *
     * @param text the text, or {@code null}
     * @return whether the text reports an authentication failure
     */
    public static boolean mentionsAuthFailure(String text) {
        return containsAny(text, "invalid api key", "invalid x-api-key", "invalid_api_key", "incorrect api key",
                "api key not valid", "authentication_error", "authentication failed", "unauthorized",
                "invalid authentication", "not logged in", "please run /login", "permission_denied",
                "invalid bearer token", "missing api key", "no api key");
    }

    /**
     * Whether the text reports a failure worth retrying as it is: an overloaded or unavailable
     * server, a gateway error, a dropped connection.
     *
     * @param text the text, or {@code null}
     * @return whether the text reports a transient failure
     */
    public static boolean mentionsTransient(String text) {
        return containsAny(text, "overloaded", "internal server error", "service unavailable", "bad gateway",
                "gateway timeout", "temporarily unavailable", "connection reset", "econnreset", "connection refused",
                "econnrefused", "socket hang up", "upstream connect error", "server_error", "api_error");
    }

    /**
     * Classifies an error text: context overflow, then authentication, then rate limit, then a
     * transient failure.
     *
     * @param text the text, or {@code null}
     * @return the outcome the text reports, or empty when it matches none of them
     */
    public static Optional<Outcome> fromText(String text) {
        if (mentionsContextOverflow(text)) {
            return Optional.of(Outcome.CONTEXT_OVERFLOW);
        }
        if (mentionsAuthFailure(text)) {
            return Optional.of(Outcome.AUTH);
        }
        if (mentionsRateLimit(text)) {
            return Optional.of(Outcome.RATE_LIMITED);
        }
        if (mentionsTransient(text)) {
            return Optional.of(Outcome.TRANSIENT);
        }
        return Optional.empty();
    }

    /**
     * The wait a rate-limit text asks for: {@code retry-after: 30}, "retry after 30 seconds",
     * "try again in 20s", "Please try again in 1m30s", "try again in 2 minutes", "resets in 1h".
     *
     * @param text the text, or {@code null}
     * @return the wait, or empty when the text names none
     */
    public static Optional<Duration> retryAfter(String text) {
        if (text == null) {
            return Optional.empty();
        }
        Matcher m = RETRY.matcher(text);
        if (!m.find()) {
            return Optional.empty();
        }
        double millis = 0;
        Matcher part = PART.matcher(m.group(1));
        while (part.find()) {
            millis += Double.parseDouble(part.group(1)) * unitMillis(part.group(2));
        }
        return millis > 0 ? Optional.of(Duration.ofMillis(Math.round(millis))) : Optional.empty();
    }

    /**
     * The instant a rate limit or quota named in the text resets, when the text gives it as an
     * instant: an ISO-8601 timestamp with an offset after "reset" ({@code "resets at
     * 2026-11-29T15:00:00Z"}, {@code "reset_at": "2026-11-29T15:00:00+01:00"}), or epoch seconds
     * after "reset" or a bar ({@code usage limit reached|1767225600}, {@code "resets_at": 1767225600}).
     * A wait relative to now is {@link #retryAfter}'s.
     *
     * @param text the text, or {@code null}
     * @return the instant, or empty when the text names none
     */
    public static Optional<Instant> resetAt(String text) {
        if (text == null) {
            return Optional.empty();
        }
        Matcher iso = RESET_ISO.matcher(text);
        if (iso.find()) {
            try {
                return Optional.of(java.time.OffsetDateTime.parse(iso.group(1).replace(' ', 'T')
                        .replaceFirst("([+-]\\d{2})(\\d{2})$", "$1:$2")).toInstant());
            } catch (java.time.format.DateTimeParseException e) {
                // not a timestamp after all: try the epoch form
            }
        }
        Matcher epoch = RESET_EPOCH.matcher(text);
        return epoch.find() ? Optional.of(Instant.ofEpochSecond(Long.parseLong(epoch.group(1)))) : Optional.empty();
    }

    /**
     * When a rate limit or quota named in the text resets: {@link Execution#finishedAt()} plus
     * {@link #retryAfter(String)}, else the instant {@link #resetAt(String)} names. Pure: the
     * clock is not read.
     *
     * @param execution the execution whose output holds the text
     * @param text the text, or {@code null}
     * @return the instant, or empty when the text names no wait (or names a relative wait and the
     *     end instant is unknown)
     */
    public static Optional<Instant> retryAt(Execution execution, String text) {
        Optional<Duration> wait = retryAfter(text);
        if (wait.isPresent()) {
            return execution.finishedAt() == null ? Optional.empty() : Optional.of(execution.finishedAt().plus(wait.get()));
        }
        return resetAt(text);
    }

    private static final Pattern RESET_ISO = Pattern.compile("reset[a-z_-]*\\W{0,4}(?:at\\W{0,3})?"
            + "(\\d{4}-\\d{2}-\\d{2}[T ]\\d{2}:\\d{2}(?::\\d{2}(?:\\.\\d+)?)?(?:Z|[+-]\\d{2}:?\\d{2}))",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern RESET_EPOCH = Pattern.compile("(?:reset[a-z_-]*\\W{0,4}(?:at\\W{0,3})?|\\|)\\s*(\\d{10})(?!\\d)",
            Pattern.CASE_INSENSITIVE);

    private static final String NUMBER_UNIT = "\\d+(?:\\.\\d+)?\\s*(?:ms|milliseconds?|seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h)?";
    private static final Pattern RETRY = Pattern.compile(
            "(?:retry[- _]?after|try again in|retry in|resets? in|wait)\\s*[:=]?\\s*\"?((?:" + NUMBER_UNIT + "\\s*)+)",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern PART = Pattern.compile(
            "(\\d+(?:\\.\\d+)?)\\s*(ms|milliseconds?|seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h)?",
            Pattern.CASE_INSENSITIVE);

    private static double unitMillis(String unit) {
        if (unit == null) {
            return 1000; // a bare number is seconds, as in the Retry-After header
        }
        String u = unit.toLowerCase(Locale.ROOT);
        if (u.equals("ms") || u.startsWith("milli")) {
            return 1;
        }
        if (u.startsWith("h")) {
            return 3_600_000;
        }
        if (u.equals("m") || u.startsWith("min")) {
            return 60_000;
        }
        return 1000;
    }

    private static boolean containsAny(String text, String... needles) {
        if (text == null) {
            return false;
        }
        String t = text.toLowerCase(Locale.ROOT);
        for (String n : needles) {
            if (t.contains(n)) {
                return true;
            }
        }
        return false;
    }
}
