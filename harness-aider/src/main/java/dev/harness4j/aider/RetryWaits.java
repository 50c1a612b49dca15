package dev.harness4j.aider;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads how long an error text asks to wait before retrying: {@code Please try again in 20s}
 * (OpenAI's wording, also {@code 1m30s}, {@code 6ms}, {@code 2.5s}), {@code retry after 30
 * seconds}, {@code try again in 5 minutes}. Pure functions.
 *
 * <p>aider prints the endpoint's error body, never its headers, so a {@code retry-after} header
 * is not visible here; a wait written in the body is.
 */
final class RetryWaits {
    private static final String AMOUNT = "(\\d+(?:\\.\\d+)?)";
    private static final Pattern LEAD = Pattern.compile(
            "(?:try again in|retry in|retry[- ]after|wait)\\W{0,3}(?=\\d)", Pattern.CASE_INSENSITIVE);
    /** OpenAI's compact form: {@code 1h2m3.5s}, {@code 20s}, {@code 850ms}. */
    private static final Pattern COMPACT = Pattern.compile(
            "(?:" + AMOUNT + "h)?(?:" + AMOUNT + "m(?!s))?(?:" + AMOUNT + "(s|ms))?", Pattern.CASE_INSENSITIVE);
    /** A number with a spelled-out or no unit: {@code 30 seconds}, {@code 5 minutes}, {@code 30}. */
    private static final Pattern WORDS = Pattern.compile(
            AMOUNT + "\\s*(milliseconds?|seconds?|secs?|minutes?|mins?|hours?)?", Pattern.CASE_INSENSITIVE);

    private RetryWaits() {}

    /** The last wait {@code text} names, or empty when it names none. */
    static Optional<Duration> in(String text) {
        if (text == null) {
            return Optional.empty();
        }
        Optional<Duration> last = Optional.empty();
        Matcher lead = LEAD.matcher(text);
        while (lead.find()) {
            Optional<Duration> d = at(text, lead.end());
            if (d.isPresent()) {
                last = d;
            }
        }
        return last;
    }

    private static Optional<Duration> at(String text, int from) {
        Matcher words = WORDS.matcher(text).region(from, text.length());
        if (words.lookingAt() && words.group(2) != null) {
            String unit = words.group(2).toLowerCase(Locale.ROOT);
            BigDecimal n = new BigDecimal(words.group(1));
            return Optional.of(millis(unit.startsWith("milli") ? n
                    : unit.startsWith("h") ? n.multiply(BigDecimal.valueOf(3_600_000))
                    : unit.startsWith("m") ? n.multiply(BigDecimal.valueOf(60_000))
                    : n.multiply(BigDecimal.valueOf(1000))));
        }
        Matcher compact = COMPACT.matcher(text).region(from, text.length());
        if (compact.lookingAt() && compact.end() > from) {
            BigDecimal ms = BigDecimal.ZERO;
            if (compact.group(1) != null) {
                ms = ms.add(new BigDecimal(compact.group(1)).multiply(BigDecimal.valueOf(3_600_000)));
            }
            if (compact.group(2) != null) {
                ms = ms.add(new BigDecimal(compact.group(2)).multiply(BigDecimal.valueOf(60_000)));
            }
            if (compact.group(3) != null) {
                BigDecimal n = new BigDecimal(compact.group(3));
                ms = ms.add(compact.group(4).equalsIgnoreCase("ms") ? n : n.multiply(BigDecimal.valueOf(1000)));
            }
            return Optional.of(millis(ms));
        }
        if (words.lookingAt()) { // a bare number, as in "retry-after: 30": seconds
            return Optional.of(millis(new BigDecimal(words.group(1)).multiply(BigDecimal.valueOf(1000))));
        }
        return Optional.empty();
    }

    private static Duration millis(BigDecimal ms) {
        return Duration.ofMillis(ms.setScale(0, java.math.RoundingMode.CEILING).longValueExact());
    }
}
