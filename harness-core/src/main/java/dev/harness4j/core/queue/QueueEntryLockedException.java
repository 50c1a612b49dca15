package dev.harness4j.core.queue;

import dev.harness4j.api.HarnessException;
import java.util.Objects;

/**
 * A queue entry stayed locked by another process for longer than the store waits: the entry is
 * busy, not broken. A {@link QueueProcessor} skips such an entry and tries it again later.
 */
public final class QueueEntryLockedException extends HarnessException {
    private static final long serialVersionUID = 1L;

    private final String entryId;

    public QueueEntryLockedException(String entryId, String message) {
        super(message);
        this.entryId = Objects.requireNonNull(entryId, "entryId");
    }

    /** The id of the locked entry. */
    public String entryId() {
        return entryId;
    }
}
