package dev.harness4j.api;

/**
 * Receives a run's events. Called from the library's threads: implementations must be
 * thread-safe and quick (hand heavy work off); an exception thrown here is logged and ignored.
 */
@FunctionalInterface
public interface HarnessListener {

    /** A listener that ignores everything. */
    HarnessListener NONE = event -> {};

    /**
     * Receives one event.
     *
     * @param event the event
     */
    void onEvent(HarnessEvent event);
}
