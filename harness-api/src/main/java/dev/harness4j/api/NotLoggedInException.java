package dev.harness4j.api;

/**
 * A run was refused before it started because the runner requires the CLI to be logged in and
 * its login probe said it is not (or, in strict mode, could not tell). The message names the
 * command that logs the CLI in.
 */
public class NotLoggedInException extends HarnessException {
    private static final long serialVersionUID = 1L;

    /** The id of the harness whose CLI is not logged in. */
    private final String harnessId;
    /** What the probe said. */
    private final Login.Status status;

    /**
     * An exception whose message names the harness, what its probe said and how to log in.
     *
     * @param harnessId the harness id
     * @param status what the login probe said ({@code NOT_LOGGED_IN} or {@code UNKNOWN})
     * @param message the whole message, naming the login command
     */
    public NotLoggedInException(String harnessId, Login.Status status, String message) {
        super(message);
        this.harnessId = harnessId;
        this.status = status;
    }

    /**
     * The harness id.
     *
     * @return the harness id
     */
    public String harnessId() {
        return harnessId;
    }

    /**
     * What the login probe said.
     *
     * @return {@code NOT_LOGGED_IN}, or {@code UNKNOWN} when the runner requires a clear answer
     */
    public Login.Status status() {
        return status;
    }
}
