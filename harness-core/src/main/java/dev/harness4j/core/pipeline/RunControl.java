package dev.harness4j.core.pipeline;

import dev.harness4j.api.Termination;

/**
 * What a stage may tell the guard of the run's harness process, from any thread (the meter's
 * request threads do): the run is active, or it must stop. Both are no-ops before the process
 * has started and after it has ended.
 */
public interface RunControl {
    /** The harness is busy (a model answer is streaming): the inactivity timer restarts. */
    void activity();

    /**
     * Stops the harness process (its whole tree) with the given reason, like the guard's own stops.
     *
     * @param termination why: its kind and reason go to the run's {@code termination}
     * @return whether this stop was the first to be decided
     */
    boolean stop(Termination termination);
}
