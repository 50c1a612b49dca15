package dev.harness4j.api;

import java.util.OptionalLong;

/**
 * Tokens a run used. Each figure is {@code null} when it was not measured: an absent figure is
 * never 0, and sums over runs count unmeasured runs separately.
 *
 * @param input input (prompt) tokens, cache reads and writes excluded
 * @param output output tokens (reasoning tokens included where the CLI reports them)
 * @param cacheRead input tokens read from the prompt cache
 * @param cacheWrite input tokens written to the prompt cache
 * @param source who measured the figures; {@code null} when nothing was measured
 */
public record TokenUsage(Long input, Long output, Long cacheRead, Long cacheWrite, Source source) {

    /** Who measured a run's tokens. */
    public enum Source {
        /** Parsed by the adapter from the CLI's own output. */
        ADAPTER,
        /** Measured at a gateway in front of the model endpoint. */
        GATEWAY,
        /**
         * Read from the wire by the library's metering proxy: the usage the model endpoint
         * reported on each request, summed.
         */
        METERED,
        /**
         * An estimate, not the endpoint's count: the CLI counted the tokens itself (e.g. with its
         * own tokenizer while streaming) and the adapter passes its figures on as such.
         */
        ESTIMATE
    }

    private static final TokenUsage UNMEASURED = new TokenUsage(null, null, null, null, null);

    /**
     * Checks the figures.
     *
     * @param input input tokens, or {@code null}
     * @param output output tokens, or {@code null}
     * @param cacheRead cache-read tokens, or {@code null}
     * @param cacheWrite cache-write tokens, or {@code null}
     * @param source who measured them; {@code null} only when nothing was measured
     * @throws IllegalArgumentException for a negative figure, or figures without a source
     */
    public TokenUsage {
        requireNonNegative(input, "input");
        requireNonNegative(output, "output");
        requireNonNegative(cacheRead, "cacheRead");
        requireNonNegative(cacheWrite, "cacheWrite");
        if (source == null && (input != null || output != null || cacheRead != null || cacheWrite != null)) {
            throw new IllegalArgumentException("measured tokens need a source");
        }
    }

    /**
     * Nothing was measured.
     *
     * @return the usage with no figure
     */
    public static TokenUsage unmeasured() {
        return UNMEASURED;
    }

    /**
     * Figures parsed by an adapter; pass {@code null} for any figure the CLI did not report.
     *
     * @param input input tokens, or {@code null}
     * @param output output tokens, or {@code null}
     * @param cacheRead cache-read tokens, or {@code null}
     * @param cacheWrite cache-write tokens, or {@code null}
     * @return the usage; {@link #unmeasured()} when every figure is {@code null}
     */
    public static TokenUsage ofAdapter(Long input, Long output, Long cacheRead, Long cacheWrite) {
        if (input == null && output == null && cacheRead == null && cacheWrite == null) {
            return UNMEASURED;
        }
        return new TokenUsage(input, output, cacheRead, cacheWrite, Source.ADAPTER);
    }

    /**
     * Whether any figure was measured.
     *
     * @return whether any figure was measured
     */
    public boolean isMeasured() {
        return source != null;
    }

    /**
     * Sum of the measured figures, empty when nothing was measured.
     *
     * @return the sum, or empty
     */
    public OptionalLong total() {
        if (!isMeasured()) {
            return OptionalLong.empty();
        }
        long t = 0;
        for (Long v : new Long[] {input, output, cacheRead, cacheWrite}) {
            if (v != null) {
                t += v;
            }
        }
        return OptionalLong.of(t);
    }

    private static void requireNonNegative(Long v, String name) {
        if (v != null && v < 0) {
            throw new IllegalArgumentException(name + " must be >= 0, was " + v);
        }
    }
}
