package dev.harness4j.core.pipeline;

import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The per-run state of a chain of {@link RunStage}s, by typed {@link Key}: a stage publishes what
 * later (inner) stages read — the meter its port, the workspace its directory — instead of the
 * runner growing a field per concern (JUnit 5's {@code ExtensionContext.Store} in spirit). One
 * per run, used by the run's thread; values are never {@code null}.
 */
public final class RunStore {
    private final Map<Key<?>, Object> values = new IdentityHashMap<>();

    /**
     * The value published under a key.
     *
     * @param key the key
     * @param <T> the value's type
     * @return the value, or empty when no stage published one
     */
    @SuppressWarnings("unchecked")
    public <T> Optional<T> get(Key<T> key) {
        return Optional.ofNullable((T) values.get(Objects.requireNonNull(key, "key")));
    }

    /**
     * The value published under a key, which must be there.
     *
     * @param key the key
     * @param <T> the value's type
     * @return the value
     * @throws IllegalStateException naming the key when no stage published it (a stage that
     *     needs it sits outside the one that publishes it)
     */
    public <T> T require(Key<T> key) {
        return get(key).orElseThrow(() -> new IllegalStateException("no stage of this run published '" + key.name()
                + "' before it was needed; is the stage that publishes it missing, or placed inside the one that reads it?"));
    }

    /**
     * Publishes a value, replacing any earlier one (a stage may refine what an outer one published:
     * the meter replaces the provider the agent sees).
     *
     * @param key the key
     * @param value the value, never {@code null}
     * @param <T> the value's type
     */
    public <T> void put(Key<T> key, T value) {
        values.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
    }

    /**
     * The value under a key, published first from {@code supplier} when there is none.
     *
     * @param key the key
     * @param supplier makes the value (never {@code null})
     * @param <T> the value's type
     * @return the value
     */
    public <T> T computeIfAbsent(Key<T> key, Supplier<? extends T> supplier) {
        Optional<T> v = get(key);
        if (v.isPresent()) {
            return v.get();
        }
        T made = Objects.requireNonNull(supplier.get(), "the supplier of " + key.name() + " returned null");
        put(key, made);
        return made;
    }
}
