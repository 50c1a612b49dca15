package dev.harness4j.api;

import java.math.BigDecimal;
import java.util.Objects;

/**
 * A measured or estimated cost in US dollars. A run whose cost was not measured has no {@code
 * Cost} at all (never a zero one).
 *
 * @param usd the amount
 * @param source where the figure comes from
 * @param note a caveat to show with it, or {@code null} (e.g. "the CLI prices unknown models at
 *     its default model's rate")
 */
public record Cost(BigDecimal usd, Source source, String note) {

    /** Where a cost figure comes from. */
    public enum Source {
        /** The CLI's own estimate (advisory: CLIs price unknown models at a default rate). */
        CLI_ESTIMATE,
        /** Prices the library wrote into the CLI's config, summed by the CLI. */
        CONFIGURED_PRICE,
        /** Spend measured at a gateway. */
        GATEWAY,
        /** Metered tokens (read from the wire) times the configured prices of the model. */
        METERED_PRICE
    }

    /**
     * Checks the figure.
     *
     * @param usd the amount, never negative
     * @param source where the figure comes from
     * @param note a caveat to show with it, or {@code null}
     * @throws IllegalArgumentException when {@code usd} is negative
     */
    public Cost {
        Objects.requireNonNull(usd, "usd");
        Objects.requireNonNull(source, "source");
        if (usd.signum() < 0) {
            throw new IllegalArgumentException("cost must be >= 0, was " + usd);
        }
    }
}
