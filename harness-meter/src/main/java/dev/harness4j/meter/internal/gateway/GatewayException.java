package dev.harness4j.meter.internal.gateway;

/**
 * A gateway admin request that failed: its message says which request and what happened, and
 * never holds a key (the admin key and the run's key are blanked from any echoed body).
 */
final class GatewayException extends Exception {
    private static final long serialVersionUID = 1L;
    private final boolean retryable;

    GatewayException(String message, boolean retryable) {
        super(message);
        this.retryable = retryable;
    }

    /** Whether asking again may help (a 5xx, a timeout, garbage); false for a refused key or a 4xx. */
    boolean retryable() {
        return retryable;
    }
}
