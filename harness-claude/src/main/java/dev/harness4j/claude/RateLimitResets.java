package dev.harness4j.claude;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads when a rate limit resets from the error text Claude Code prints. Pure functions; the
 * current time is passed in.
 *
 * <p>Recognised, in this order of preference:
 * <ol>
 *   <li>an ISO-8601 timestamp with offset ({@code resets at 2026-11-29T15:00:00Z});
 *   <li>epoch seconds after a reset word or a bar ({@code usage limit reached|1767225600});
 *   <li>a time of day after "resets" ({@code resets 3pm (UTC)}, {@code resets 15:30}), taken as
 *       its next occurrence in the named zone (UTC when none);
 *   <li>a relative wait: {@code retry-after: 30}, {@code retry after 30 seconds}, {@code try
 *       again in 5 minutes}.
 * </ol>
 */
final class RateLimitResets {
    private static final Pattern ISO = Pattern.compile(
            "(\\d{4}-\\d{2}-\\d{2}[T ]\\d{2}:\\d{2}(?::\\d{2}(?:\\.\\d+)?)?(?:Z|[+-]\\d{2}:?\\d{2}))");
    private static final Pattern EPOCH = Pattern.compile(
            "(?:reset[a-z_-]*\\W{0,3}|\\|)\\s*(\\d{10})(?!\\d)", Pattern.CASE_INSENSITIVE);
    private static final Pattern TIME_OF_DAY = Pattern.compile(
            "resets?(?:\\s+at)?\\s+(\\d{1,2})(?::(\\d{2}))?\\s*(am|pm)?(?:\\s*\\(([A-Za-z_/+-]+)\\))?",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern RELATIVE = Pattern.compile(
            "(?:retry[- ]after|try again in|retry in|wait)\\W{0,3}(\\d+(?:\\.\\d+)?)\\s*"
                    + "(ms|milliseconds?|s|secs?|seconds?|m|mins?|minutes?|h|hours?)?",
            Pattern.CASE_INSENSITIVE);

    private static final Pattern LOGGED_429 = Pattern.compile("\\bstatus:\\s*429\\b");
    private static final Pattern RETRY_AFTER_MS = Pattern.compile(
            "\"?retry-after-ms\"?\\s*:\\s*\"(\\d+(?:\\.\\d+)?)\"", Pattern.CASE_INSENSITIVE);
    private static final Pattern RETRY_AFTER = Pattern.compile(
            "\"?retry-after\"?\\s*:\\s*\"([^\"]+)\"", Pattern.CASE_INSENSITIVE);
    private static final Pattern DATE_HEADER = Pattern.compile("\\bdate\"?\\s*:\\s*\"([^\"]+)\"");
    private static final Pattern RATELIMIT_RESET = Pattern.compile(
            "\"?anthropic-ratelimit-[a-z0-9-]*reset\"?\\s*:\\s*\"([^\"]+)\"", Pattern.CASE_INSENSITIVE);
    /** How much output after a logged 429 is searched for its headers. */
    private static final int HEADER_BLOCK_CHARS = 8192;

    private RateLimitResets() {}

    /**
     * When the limit resets according to the response headers of the last 429 the CLI's API
     * client logged ({@code ANTHROPIC_LOG=debug}): {@code retry-after-ms} or {@code retry-after}
     * counted from the response's {@code date} header (else from {@code now}), failing that the
     * latest {@code anthropic-ratelimit-*-reset}. Empty when no 429 with such headers was logged.
     */
    static Optional<Instant> fromLoggedHeaders(String output, Instant now) {
        if (output == null) {
            return Optional.empty();
        }
        Matcher m = LOGGED_429.matcher(output);
        int last = -1;
        while (m.find()) {
            last = m.start();
        }
        if (last < 0) {
            return Optional.empty();
        }
        String block = output.substring(last, Math.min(output.length(), last + HEADER_BLOCK_CHARS));
        int end = block.indexOf("\n}");
        if (end > 0) {
            block = block.substring(0, end);
        }
        Instant base = now;
        Matcher date = DATE_HEADER.matcher(block);
        if (date.find()) {
            try {
                base = ZonedDateTime.parse(date.group(1).trim(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
            } catch (DateTimeParseException e) {
                base = now;
            }
        }
        Matcher ms = RETRY_AFTER_MS.matcher(block);
        if (ms.find()) {
            return Optional.of(base.plusMillis((long) Double.parseDouble(ms.group(1))));
        }
        Matcher ra = RETRY_AFTER.matcher(block);
        if (ra.find()) {
            String v = ra.group(1).trim();
            if (v.matches("\\d+(?:\\.\\d+)?")) {
                return Optional.of(base.plusMillis((long) (Double.parseDouble(v) * 1000)));
            }
            try {
                return Optional.of(ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant());
            } catch (DateTimeParseException e) {
                // an unreadable retry-after; try the rate-limit headers
            }
        }
        Instant latest = null;
        Matcher rl = RATELIMIT_RESET.matcher(block);
        while (rl.find()) {
            Optional<Instant> at = parseResetValue(rl.group(1).trim());
            if (at.isPresent() && (latest == null || at.get().isAfter(latest))) {
                latest = at.get();
            }
        }
        return Optional.ofNullable(latest);
    }

    private static Optional<Instant> parseResetValue(String v) {
        if (v.matches("\\d{10}")) {
            return Optional.of(Instant.ofEpochSecond(Long.parseLong(v)));
        }
        try {
            return Optional.of(OffsetDateTime.parse(normaliseIso(v)).toInstant());
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    /** When the limit resets according to {@code text}, or empty when the text does not say. */
    static Optional<Instant> parse(String text, Instant now) {
        if (text == null || text.isBlank()) {
            return Optional.empty();
        }
        Matcher iso = ISO.matcher(text);
        if (iso.find()) {
            try {
                return Optional.of(OffsetDateTime.parse(normaliseIso(iso.group(1))).toInstant());
            } catch (DateTimeParseException e) {
                // fall through to the other forms
            }
        }
        Matcher epoch = EPOCH.matcher(text);
        if (epoch.find()) {
            return Optional.of(Instant.ofEpochSecond(Long.parseLong(epoch.group(1))));
        }
        Matcher tod = TIME_OF_DAY.matcher(text);
        if (tod.find()) {
            Optional<Instant> at = timeOfDay(tod, now);
            if (at.isPresent()) {
                return at;
            }
        }
        Matcher rel = RELATIVE.matcher(text);
        if (rel.find()) {
            double amount = Double.parseDouble(rel.group(1));
            String unit = rel.group(2) == null ? "s" : rel.group(2).toLowerCase(Locale.ROOT);
            double millis = unit.startsWith("ms") || unit.startsWith("milli") ? amount
                    : unit.startsWith("h") ? amount * 3_600_000
                    : unit.startsWith("m") ? amount * 60_000
                    : amount * 1000;
            return Optional.of(now.plusMillis((long) millis));
        }
        return Optional.empty();
    }

    private static String normaliseIso(String s) {
        String t = s.replace(' ', 'T');
        if (t.matches(".*[+-]\\d{4}$")) {
            t = t.substring(0, t.length() - 2) + ":" + t.substring(t.length() - 2);
        }
        return t;
    }

    private static Optional<Instant> timeOfDay(Matcher m, Instant now) {
        int hour = Integer.parseInt(m.group(1));
        int minute = m.group(2) == null ? 0 : Integer.parseInt(m.group(2));
        String ampm = m.group(3);
        if (ampm == null && m.group(2) == null) {
            return Optional.empty(); // a bare number ("resets 5") is no time of day
        }
        if (ampm != null) {
            if (hour < 1 || hour > 12) {
                return Optional.empty();
            }
            hour = hour % 12 + (ampm.equalsIgnoreCase("pm") ? 12 : 0);
        }
        if (hour > 23 || minute > 59) {
            return Optional.empty();
        }
        ZoneId zone = ZoneOffset.UTC;
        if (m.group(4) != null) {
            try {
                zone = ZoneId.of(m.group(4));
            } catch (DateTimeException e) {
                zone = ZoneOffset.UTC;
            }
        }
        ZonedDateTime current = now.atZone(zone);
        ZonedDateTime at = current.with(LocalTime.of(hour, minute));
        if (!at.isAfter(current)) {
            at = at.plusDays(1);
        }
        return Optional.of(at.toInstant());
    }
}
