package dev.harness4j.core.pipeline;

import java.util.Objects;

/**
 * A typed key of a run's {@link RunStore}: the namespace is the key itself (compared by
 * identity), so two stages that each declare a key named {@code "port"} never see each other's
 * value. Declare keys as constants next to the stage that publishes them.
 *
 * <pre>{@code
 * public static final Key<Integer> PORT = Key.named("my-stage.port");
 * }</pre>
 *
 * @param <T> the type of the value stored under this key
 */
public final class Key<T> {
    private final String name;

    private Key(String name) {
        this.name = Objects.requireNonNull(name, "name");
    }

    /**
     * A new key; its name is for messages only.
     *
     * @param name what the value is, e.g. {@code "meter.port"}
     * @param <T> the value's type
     * @return a key equal only to itself
     */
    public static <T> Key<T> named(String name) {
        return new Key<>(name);
    }

    /** Returns the key's name. */
    public String name() {
        return name;
    }

    @Override
    public String toString() {
        return name;
    }
}
