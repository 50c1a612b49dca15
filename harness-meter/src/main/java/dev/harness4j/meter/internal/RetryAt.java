package dev.harness4j.meter.internal;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * When a rate-limited request may be retried, from its headers or its body. The headers are the
 * most trusted source; a run's result keeps a header's time over what the CLI printed, and what
 * the CLI printed over the body's wording ({@link WireTruth}). Pure functions.
 */
final class RetryAt {
    private static final Pattern GO_DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|h|m|s)");
    private static final Pattern TRY_AGAIN = Pattern.compile("(?i)(?:try again|retry) (?:in|after) (\\d+(?:\\.\\d+)?)\\s*(ms|s|sec|seconds?|m|min|minutes?)\\b");

    private RetryAt() {}

    /** Whether a header is one the meter records: {@code retry-after} and the rate-limit ones. */
    static boolean isRateLimitHeader(String lowerName) {
        return lowerName.equals("retry-after") || lowerName.equals("retry-after-ms")
                || lowerName.startsWith("anthropic-ratelimit-") || lowerName.startsWith("x-ratelimit-");
    }

    /**
     * The retry time, the headers first (the most trusted source: {@link #fromHeaders}), else the
     * body ({@link #fromBody}); {@code null} when none says.
     */
    static Instant of(Map<String, String> headers, String errorMessage, Duration retryDelay, Instant answeredAt) {
        Instant t = fromHeaders(headers, answeredAt);
        return t != null ? t : fromBody(errorMessage, retryDelay, answeredAt);
    }

    /**
     * The retry time the headers give: {@code retry-after-ms}, else {@code retry-after} (seconds
     * or an HTTP date), else the latest {@code anthropic-ratelimit-*-reset} (RFC 3339) or {@code
     * x-ratelimit-reset-*} (a duration such as {@code 6m0s}); {@code null} when none says.
     */
    static Instant fromHeaders(Map<String, String> headers, Instant answeredAt) {
        String ms = headers.get("retry-after-ms");
        if (ms != null) {
            try {
                return answeredAt.plusMillis((long) Double.parseDouble(ms.trim()));
            } catch (NumberFormatException e) {
                // fall through
            }
        }
        String ra = headers.get("retry-after");
        if (ra != null) {
            Instant t = retryAfter(ra.trim(), answeredAt);
            if (t != null) {
                return t;
            }
        }
        Instant latest = null;
        for (Map.Entry<String, String> h : headers.entrySet()) {
            String n = h.getKey();
            Instant t = null;
            if (n.startsWith("anthropic-ratelimit-") && n.endsWith("-reset")) {
                try {
                    t = ZonedDateTime.parse(h.getValue().trim(), DateTimeFormatter.ISO_DATE_TIME).toInstant();
                } catch (DateTimeParseException e) {
                    t = null;
                }
            } else if (n.startsWith("x-ratelimit-reset")) {
                Duration d = goDuration(h.getValue().trim());
                t = d == null ? null : answeredAt.plus(d);
            }
            if (t != null && (latest == null || t.isAfter(latest))) {
                latest = t;
            }
        }
        return latest;
    }

    /**
     * The retry time the body gives: Google's {@code RetryInfo.retryDelay}, else "try again in
     * 20s" in the error message, else a reset instant the message names (an out-of-quota
     * answer's "resets at 2026-12-01T15:00:00Z" or "usage limit reached|1767225600", {@link
     * dev.harness4j.api.support.Outcomes#resetAt}); {@code null} when none says.
     *
     * @param retryDelay the body's structured delay, or {@code null}
     */
    static Instant fromBody(String errorMessage, Duration retryDelay, Instant answeredAt) {
        if (retryDelay != null) {
            return answeredAt.plus(retryDelay);
        }
        if (errorMessage == null) {
            return null;
        }
        Matcher m = TRY_AGAIN.matcher(errorMessage);
        if (m.find()) {
            double v = Double.parseDouble(m.group(1));
            String unit = m.group(2).toLowerCase(Locale.ROOT);
            long millis = unit.equals("ms") ? (long) v : unit.startsWith("m") ? (long) (v * 60_000) : (long) (v * 1000);
            return answeredAt.plusMillis(millis);
        }
        return dev.harness4j.api.support.Outcomes.resetAt(errorMessage).orElse(null);
    }

    private static Instant retryAfter(String v, Instant answeredAt) {
        try {
            return answeredAt.plusMillis((long) (Double.parseDouble(v) * 1000));
        } catch (NumberFormatException e) {
            try {
                return ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
            } catch (DateTimeParseException e2) {
                return null;
            }
        }
    }

    /** {@code 1h2m3.5s}, {@code 20ms}, {@code 6m0s}, or plain seconds → a duration; null when unreadable. */
    static Duration goDuration(String v) {
        try {
            return Duration.ofMillis((long) (Double.parseDouble(v) * 1000));
        } catch (NumberFormatException e) {
            // a unit-suffixed duration
        }
        Matcher m = GO_DURATION.matcher(v);
        long millis = 0;
        int end = 0;
        boolean any = false;
        while (m.find()) {
            if (m.start() != end) {
                return null;
            }
            end = m.end();
            any = true;
            double n = Double.parseDouble(m.group(1));
            millis += switch (m.group(2)) {
                case "ms" -> (long) n;
                case "s" -> (long) (n * 1000);
                case "m" -> (long) (n * 60_000);
                default -> (long) (n * 3_600_000);
            };
        }
        return any && end == v.length() ? Duration.ofMillis(millis) : null;
    }
}
