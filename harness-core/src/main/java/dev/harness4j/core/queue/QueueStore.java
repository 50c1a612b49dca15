package dev.harness4j.core.queue;

import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;

/**
 * Where queue entries live. The embedded default is {@link FileQueueStore}; a store shared by
 * many machines (PostgreSQL) implements the same five operations.
 *
 * <p>The one atomic primitive is {@link #update}: read an entry, decide, write it back, with no
 * other thread or process able to change the entry in between. Claiming, finishing and recovery
 * are all built on it, so a store that gets {@code update} right is safe for concurrent
 * processors. Implementations are thread-safe.
 */
public interface QueueStore extends AutoCloseable {

    /**
     * Stores a new entry.
     *
     * @throws dev.harness4j.api.HarnessException when an entry with this id exists or it cannot
     *     be written
     */
    void add(QueueEntry entry);

    /** The entry with this id, if there is one (a concurrent update is seen whole or not at all). */
    Optional<QueueEntry> get(String id);

    /**
     * Every readable entry, oldest {@link QueueEntry#enqueuedAt()} first. A document that cannot
     * be read is logged and left out, never fatal.
     */
    List<QueueEntry> list();

    /**
     * The entries that are not finished ({@code queued}, {@code running}, {@code interrupted}),
     * oldest first: what a {@link QueueProcessor} polls, often, and what {@link RunQueue#recover()}
     * reads. It should cost what the unfinished entries cost, not the whole history: a store (or a
     * store that wraps another) implements it on its own, never by filtering {@link #list()}, which
     * nothing on the claim path calls.
     */
    List<QueueEntry> listActive();

    /**
     * Atomically replaces an entry by {@code change(current)}. {@code change} may be called on
     * the freshest copy only and must be a pure function; returning {@code null} or the same
     * instance leaves the entry as it is.
     *
     * @return the entry as written, or empty when there is no such entry or {@code change} left
     *     it unchanged
     */
    Optional<QueueEntry> update(String id, UnaryOperator<QueueEntry> change);

    /**
     * As {@link #update(String, UnaryOperator)}, but gives up while waiting for another holder of
     * the entry (another process's lock on it) once {@code giveUp} says so: then nothing is
     * written and the result is empty. A processor claims this way, so that a stop is not held up
     * by an entry another process keeps locked. The default waits as {@link #update(String,
     * UnaryOperator)} does.
     */
    default Optional<QueueEntry> update(String id, UnaryOperator<QueueEntry> change, BooleanSupplier giveUp) {
        return update(id, change);
    }

    /** Removes an entry; false when there was none. */
    boolean remove(String id);

    /** Releases what the store holds; idempotent. The default holds nothing. */
    @Override
    default void close() {}
}
