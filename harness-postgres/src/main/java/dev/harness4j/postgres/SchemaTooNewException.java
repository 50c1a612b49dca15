package dev.harness4j.postgres;

import dev.harness4j.api.HarnessException;

/**
 * The database holds a harness4j schema newer than this harness4j knows: a newer version has
 * migrated it. Nothing is started; upgrade harness4j on this machine.
 */
public class SchemaTooNewException extends HarnessException {
    private static final long serialVersionUID = 1L;

    private final int found;
    private final int known;

    public SchemaTooNewException(String message, int found, int known) {
        super(message);
        this.found = found;
        this.known = known;
    }

    /** The schema version found in the database. */
    public int found() {
        return found;
    }

    /** The newest schema version this harness4j knows. */
    public int known() {
        return known;
    }
}
