package dev.harness4j.aider;

import dev.harness4j.api.Cost;
import dev.harness4j.api.TokenUsage;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Adds up aider's usage lines: {@code Tokens: 12k sent, 2.0k cache write, 1.5k cache hit, 1.2k
 * received.} and {@code Cost: $0.0123 message, $0.05 session.} (on the same line or the next).
 * Not thread-safe: one instance reads one run's output.
 *
 * <p>aider prints one {@code Tokens:} line per message it sends to the main model (a reflection
 * after a failed edit, lint or test is a message of its own) and resets its counts after each,
 * so the run's tokens are the <em>sum</em> of its lines; its {@code Cost:} line carries a running
 * session total, so the run's cost is the <em>last</em> session figure. A count is printed as
 * {@code aider.utils.format_tokens} does: below 1000 as is ({@code 340}), below 10000 with one
 * decimal and {@code k} ({@code 1.2k}), above rounded to thousands ({@code 12k}); the figures
 * are therefore exact below 1000 and rounded above.
 *
 * <p>aider's "sent" includes the cache hits and writes it lists, which {@link TokenUsage#input()}
 * excludes: input = sent - cache hit - cache write. A cache part aider does not print (it omits
 * zeros) is unmeasured, not 0. A {@code Cost:} line appears only for models aider has prices for
 * (LiteLLM's bundled price table); without one the cost is unmeasured.
 *
 * <p>Which figures these are depends on how aider talked to the model: with {@code --no-stream}
 * its lines carry the endpoint's usage; streaming (aider's default) they carry counts of its own
 * tokenizer, an estimate ({@link #tokens(boolean)}). After a request the endpoint rejected (a
 * context-window overflow) aider still prints its pre-send count; {@link #retractLast()} takes
 * such a line back.
 */
final class UsageLines {
    private static final String COUNT = "(\\d+(?:\\.\\d+)?k?)";
    private static final Pattern TOKENS = Pattern.compile(
            "^Tokens: " + COUNT + " sent(?:, " + COUNT + " cache write)?(?:, " + COUNT + " cache hit)?, "
                    + COUNT + " received\\.(?:\\s+(.*))?$");
    private static final Pattern COST = Pattern.compile(
            "^Cost: \\$(\\d+(?:\\.\\d+)?) message, \\$(\\d+(?:\\.\\d+)?) session\\.\\s*$");

    /** The caveat that goes with aider's cost figures. */
    static final String COST_NOTE = "aider's estimate from LiteLLM's bundled price table, rounded as aider prints it";

    private int lines;
    private long sent;
    private long received;
    private Long cacheWrite;
    private Long cacheHit;
    private BigDecimal sessionCost;
    /** The state before the last {@code Tokens:} line, for {@link #retractLast()}; {@code null} after it. */
    private UsageLines beforeLast;

    /**
     * Reads one output line.
     *
     * @return whether it was a usage line ({@code Tokens:} or {@code Cost:})
     */
    boolean accept(String rawLine) {
        String line = rawLine.strip();
        Matcher t = TOKENS.matcher(line);
        if (t.matches()) {
            beforeLast = copy();
            lines++;
            sent += parseCount(t.group(1));
            if (t.group(2) != null) {
                cacheWrite = (cacheWrite == null ? 0 : cacheWrite) + parseCount(t.group(2));
            }
            if (t.group(3) != null) {
                cacheHit = (cacheHit == null ? 0 : cacheHit) + parseCount(t.group(3));
            }
            received += parseCount(t.group(4));
            if (t.group(5) != null) {
                acceptCost(t.group(5).strip());
            }
            return true;
        }
        return acceptCost(line);
    }

    private boolean acceptCost(String line) {
        Matcher c = COST.matcher(line);
        if (!c.matches()) {
            return false;
        }
        sessionCost = new BigDecimal(c.group(2));
        return true;
    }

    private UsageLines copy() {
        UsageLines c = new UsageLines();
        c.lines = lines;
        c.sent = sent;
        c.received = received;
        c.cacheWrite = cacheWrite;
        c.cacheHit = cacheHit;
        c.sessionCost = sessionCost;
        return c;
    }

    /**
     * Takes back the last {@code Tokens:} line and the {@code Cost:} line that followed it: they
     * described a request the endpoint rejected, so they are aider's pre-send count, not usage.
     *
     * @return whether there was a line to take back
     */
    boolean retractLast() {
        if (beforeLast == null) {
            return false;
        }
        lines = beforeLast.lines;
        sent = beforeLast.sent;
        received = beforeLast.received;
        cacheWrite = beforeLast.cacheWrite;
        cacheHit = beforeLast.cacheHit;
        sessionCost = beforeLast.sessionCost;
        beforeLast = null;
        return true;
    }

    /** How many {@code Tokens:} lines were read. */
    int tokenLines() {
        return lines;
    }

    /**
     * The tokens of all lines read; unmeasured when there was none.
     *
     * @param estimated whether aider counted them itself (it streamed), so that they are labelled
     *     {@link TokenUsage.Source#ESTIMATE} rather than {@link TokenUsage.Source#ADAPTER}
     */
    TokenUsage tokens(boolean estimated) {
        if (lines == 0) {
            return TokenUsage.unmeasured();
        }
        long cached = (cacheHit == null ? 0 : cacheHit) + (cacheWrite == null ? 0 : cacheWrite);
        return new TokenUsage(Math.max(0, sent - cached), received, cacheHit, cacheWrite,
                estimated ? TokenUsage.Source.ESTIMATE : TokenUsage.Source.ADAPTER);
    }

    /** The last session cost aider printed, if it printed one. */
    Optional<Cost> cost() {
        return Optional.ofNullable(sessionCost).map(usd -> new Cost(usd, Cost.Source.CLI_ESTIMATE, COST_NOTE));
    }

    /**
     * Parses one count as {@code aider.utils.format_tokens} prints it: {@code 340}, {@code 1.2k},
     * {@code 12k}.
     *
     * @throws NumberFormatException for anything else
     */
    static long parseCount(String text) {
        String s = text.strip();
        if (s.endsWith("k")) {
            return new BigDecimal(s.substring(0, s.length() - 1)).movePointRight(3).setScale(0, RoundingMode.HALF_UP).longValueExact();
        }
        if (s.isEmpty() || !s.chars().allMatch(Character::isDigit)) {
            throw new NumberFormatException("not an aider token count: '" + text + "'");
        }
        return Long.parseLong(s);
    }
}
