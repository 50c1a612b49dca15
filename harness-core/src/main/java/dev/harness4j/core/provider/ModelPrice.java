package dev.harness4j.core.provider;

import dev.harness4j.api.TokenUsage;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Objects;
import java.util.Optional;

/**
 * What a model costs, in US dollars per million tokens, for pricing metered tokens.
 *
 * <pre>{@code
 * ModelPrice sonnet = ModelPrice.of("3", "15").withCache("0.30", "3.75");
 * }</pre>
 *
 * @param input per million uncached input tokens
 * @param output per million output tokens
 * @param cacheRead per million cache-read tokens, or {@code null} when not priced
 * @param cacheWrite per million cache-write tokens, or {@code null} when not priced
 */
public record ModelPrice(BigDecimal input, BigDecimal output, BigDecimal cacheRead, BigDecimal cacheWrite) {
    private static final BigDecimal MILLION = BigDecimal.valueOf(1_000_000);

    /**
     * Checks the prices.
     *
     * @throws IllegalArgumentException for a negative price
     */
    public ModelPrice {
        requireNonNegative(Objects.requireNonNull(input, "input"), "input");
        requireNonNegative(Objects.requireNonNull(output, "output"), "output");
        requireNonNegative(cacheRead, "cacheRead");
        requireNonNegative(cacheWrite, "cacheWrite");
    }

    /** Input and output prices (decimal strings, USD per million tokens), cache not priced. */
    public static ModelPrice of(String inputPerMillion, String outputPerMillion) {
        return new ModelPrice(new BigDecimal(inputPerMillion), new BigDecimal(outputPerMillion), null, null);
    }

    /** A copy with cache-read and cache-write prices (decimal strings, USD per million tokens). */
    public ModelPrice withCache(String cacheReadPerMillion, String cacheWritePerMillion) {
        return new ModelPrice(input, output, new BigDecimal(cacheReadPerMillion), new BigDecimal(cacheWritePerMillion));
    }

    /**
     * The cost of the given tokens; empty when input or output is unmeasured, or a cache figure
     * above 0 has no price. An unmeasured cache figure counts as 0: the OpenAI APIs count cache
     * writes inside the input, which is priced.
     */
    public Optional<BigDecimal> cost(TokenUsage t) {
        if (t.input() == null || t.output() == null) {
            return Optional.empty();
        }
        BigDecimal sum = input.multiply(BigDecimal.valueOf(t.input())).add(output.multiply(BigDecimal.valueOf(t.output())));
        for (Object[] c : new Object[][] {{t.cacheRead(), cacheRead}, {t.cacheWrite(), cacheWrite}}) {
            Long n = (Long) c[0];
            BigDecimal p = (BigDecimal) c[1];
            if (n != null && n > 0) {
                if (p == null) {
                    return Optional.empty();
                }
                sum = sum.add(p.multiply(BigDecimal.valueOf(n)));
            }
        }
        return Optional.of(sum.divide(MILLION, MathContext.DECIMAL64).stripTrailingZeros());
    }

    private static void requireNonNegative(BigDecimal v, String name) {
        if (v != null && v.signum() < 0) {
            throw new IllegalArgumentException(name + " price must be >= 0, was " + v);
        }
    }
}
