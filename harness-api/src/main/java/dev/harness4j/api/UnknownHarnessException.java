package dev.harness4j.api;

import java.util.Set;
import java.util.TreeSet;

/** A run named a harness id that no adapter provides. */
public class UnknownHarnessException extends HarnessException {
    private static final long serialVersionUID = 1L;

    /** The harness id no adapter provides. */
    private final String harnessId;
    /** The harness ids the adapters provide. */
    private final Set<String> knownIds;

    /**
     * An exception whose message lists the known ids and how to add an adapter.
     *
     * @param harnessId the harness id no adapter provides
     * @param knownIds the harness ids the adapters provide
     */
    public UnknownHarnessException(String harnessId, Set<String> knownIds) {
        super("unknown harness '" + harnessId + "'; known harnesses: " + new TreeSet<>(knownIds)
                + " (add the adapter's jar to the class path, or register it with HarnessRegistry.builder().add(..))");
        this.harnessId = harnessId;
        this.knownIds = Set.copyOf(knownIds);
    }

    /**
     * An exception whose message lists the known ids and, when adapters or harness sources failed
     * to load, what each of them said (the reason a harness the user expected is missing).
     *
     * @param harnessId the harness id no adapter provides
     * @param knownIds the harness ids the adapters provide
     * @param loadFailures one line per adapter or source that failed to load; may be empty
     */
    public UnknownHarnessException(String harnessId, Set<String> knownIds, java.util.List<String> loadFailures) {
        super("unknown harness '" + harnessId + "'; known harnesses: " + new TreeSet<>(knownIds)
                + " (add the adapter's jar to the class path, or register it with HarnessRegistry.builder().add(..))"
                + (loadFailures.isEmpty() ? "" : "; these failed to load: " + String.join("; ", loadFailures)));
        this.harnessId = harnessId;
        this.knownIds = Set.copyOf(knownIds);
    }

    /**
     * The harness id no adapter provides.
     *
     * @return the id
     */
    public String harnessId() {
        return harnessId;
    }

    /**
     * The harness ids the adapters provide.
     *
     * @return the ids
     */
    public Set<String> knownIds() {
        return knownIds;
    }
}
