package dev.harness4j.api;

import java.util.Set;
import java.util.TreeSet;

/** A run named a harness id that no adapter provides. */
public class UnknownHarnessException extends HarnessException {
    private static final long serialVersionUID = 1L;

    private final String harnessId;
    private final Set<String> knownIds;

    public UnknownHarnessException(String harnessId, Set<String> knownIds) {
        super("unknown harness '" + harnessId + "'; known harnesses: " + new TreeSet<>(knownIds)
                + " (add the adapter's jar to the class path, or register it with HarnessRegistry.builder().add(..))");
        this.harnessId = harnessId;
        this.knownIds = Set.copyOf(knownIds);
    }

    public String harnessId() {
        return harnessId;
    }

    public Set<String> knownIds() {
        return knownIds;
    }
}
