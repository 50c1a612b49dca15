package dev.harness4j.core.pipeline;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The secret values of one run (the provider's key, a gateway's per-run key, credentials in a
 * remote's URL): whatever the run writes — events, transcripts, {@code meta.json}, result files,
 * log lines — has them replaced by {@code ***}. A stage adds what it brings. Thread-safe.
 */
public final class RunSecrets {
    private final Set<String> values = new LinkedHashSet<>();
    private final Consumer<List<String>> onChange;

    /**
     * @param onChange told the whole list whenever a value is added (the event log redacts with it)
     */
    public RunSecrets(Consumer<List<String>> onChange) {
        this.onChange = Objects.requireNonNull(onChange, "onChange");
    }

    /**
     * Adds a secret; blank values are ignored.
     *
     * @param value the secret, or {@code null}
     */
    public void add(String value) {
        addAll(value == null ? List.of() : List.of(value));
    }

    /**
     * Adds secrets; blank values are ignored.
     *
     * @param more the secrets
     */
    public void addAll(Collection<String> more) {
        List<String> now;
        synchronized (this) {
            boolean changed = false;
            for (String v : more) {
                if (v != null && !v.isBlank()) {
                    changed |= values.add(v);
                }
            }
            if (!changed) {
                return;
            }
            now = List.copyOf(values);
        }
        onChange.accept(now);
    }

    /** Returns the values, in the order added. */
    public synchronized List<String> values() {
        return List.copyOf(values);
    }
}
