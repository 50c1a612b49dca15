package dev.harness4j.api;

/**
 * The root of every exception harness4j throws on purpose. Subclasses say what a caller can
 * act on; messages say what was attempted, the key values, and the fix.
 */
public class HarnessException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * An exception with a message.
     *
     * @param message what was attempted, the key values, and the fix
     */
    public HarnessException(String message) {
        super(message);
    }

    /**
     * An exception with a message and its cause.
     *
     * @param message what was attempted, the key values, and the fix
     * @param cause the failure underneath
     */
    public HarnessException(String message, Throwable cause) {
        super(message, cause);
    }
}
