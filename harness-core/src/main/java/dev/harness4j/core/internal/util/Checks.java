package dev.harness4j.core.internal.util;

import java.time.Duration;
import java.util.Objects;

/** Argument checks with the messages every builder of harness-core gives. Not API. */
public final class Checks {
    private Checks() {}

    /**
     * Returns {@code value} when it is longer than zero.
     *
     * @throws NullPointerException naming {@code name} when it is null
     * @throws IllegalArgumentException "{@code name} must be positive, was {@code value}" otherwise
     */
    public static Duration positive(Duration value, String name) {
        Objects.requireNonNull(value, name);
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, was " + value);
        }
        return value;
    }
}
