package dev.harness4j.core.provider;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Prices of models, by provider name and model id, for turning metered tokens into a cost
 * (source {@code metered-price}). A model without a price gets no cost, never $0. Give one to
 * {@code HarnessRunner.builder().prices(..)}; a {@link dev.harness4j.api.ProviderResolver} that
 * also implements this interface is asked too.
 *
 * <pre>{@code
 * PriceList prices = PriceList.builder()
 *         .price("anthropic", "claude-sonnet-4-5", ModelPrice.of("3", "15").withCache("0.30", "3.75"))
 *         .build();
 * }</pre>
 */
@FunctionalInterface
public interface PriceList {
    /** No prices at all. */
    PriceList NONE = (provider, model) -> Optional.empty();

    /**
     * The price of a model.
     *
     * @param provider the provider's name
     * @param model the model id the run asked for
     * @return the price, or empty when this list has none
     */
    Optional<ModelPrice> price(String provider, String model);

    /** This list's price, else the other's. */
    default PriceList or(PriceList other) {
        Objects.requireNonNull(other, "other");
        return (provider, model) -> {
            Optional<ModelPrice> p = price(provider, model);
            return p.isPresent() ? p : other.price(provider, model);
        };
    }

    /** A builder of a fixed table. */
    static Builder builder() {
        return new Builder();
    }

    /** Builds a fixed {@link PriceList}; not thread-safe, the built list is immutable. */
    final class Builder {
        private final Map<String, ModelPrice> prices = new HashMap<>();

        private Builder() {}

        /** The price of {@code model} at {@code provider}. */
        public Builder price(String provider, String model, ModelPrice price) {
            prices.put(key(Objects.requireNonNull(provider, "provider"), Objects.requireNonNull(model, "model")),
                    Objects.requireNonNull(price, "price"));
            return this;
        }

        /** The immutable list. */
        public PriceList build() {
            Map<String, ModelPrice> copy = Map.copyOf(prices);
            return (provider, model) -> Optional.ofNullable(copy.get(key(provider, model)));
        }

        private static String key(String provider, String model) {
            return provider + "\u0000" + model;
        }
    }
}
