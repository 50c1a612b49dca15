package dev.harness4j.api;

import java.util.Objects;

/**
 * A secret value (an API key or token) that never shows itself: {@link #toString()} is {@code
 * ***}. Only {@link #reveal()} gives the value, for the one place that must send it.
 */
public final class Secret {
    /** What every secret prints as. */
    public static final String REDACTED = "***";

    private final String value;

    private Secret(String value) {
        this.value = value;
    }

    /**
     * Wraps a non-empty value.
     *
     * @param value the value
     * @return the secret
     * @throws IllegalArgumentException when the value is empty
     */
    public static Secret of(String value) {
        Objects.requireNonNull(value, "value");
        if (value.isEmpty()) {
            throw new IllegalArgumentException("a secret must not be empty");
        }
        return new Secret(value);
    }

    /**
     * The plain value. Never log it or write it to disk.
     *
     * @return the value
     */
    public String reveal() {
        return value;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Secret s && s.value.equals(value);
    }

    @Override
    public int hashCode() {
        return value.hashCode();
    }

    @Override
    public String toString() {
        return REDACTED;
    }
}
