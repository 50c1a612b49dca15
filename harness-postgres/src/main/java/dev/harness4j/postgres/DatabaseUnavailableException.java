package dev.harness4j.postgres;

import dev.harness4j.api.HarnessException;

/**
 * The database cannot be reached or refused the login. The message names the URL without
 * credentials and says what to check.
 */
public class DatabaseUnavailableException extends HarnessException {
    private static final long serialVersionUID = 1L;

    public DatabaseUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
