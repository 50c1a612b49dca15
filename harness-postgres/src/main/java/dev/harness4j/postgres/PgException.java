package dev.harness4j.postgres;

import dev.harness4j.api.HarnessException;

/** A statement against the harness4j schema failed; the message says what was attempted. */
public class PgException extends HarnessException {
    private static final long serialVersionUID = 1L;

    public PgException(String message, Throwable cause) {
        super(message, cause);
    }
}
