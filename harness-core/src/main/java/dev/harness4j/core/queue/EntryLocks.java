package dev.harness4j.core.queue;

import dev.harness4j.api.HarnessException;
import dev.harness4j.core.internal.util.FileLocks;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * The entry locks of a {@link FileQueueStore}: {@code <dir>/locks/<entryId>.lock}, taken through
 * {@link FileLocks} (a JVM-wide stripe, then the OS lock). A wait for a lock another holder keeps
 * is cut into slices of {@link #GIVE_UP_CHECK}, with a caller's "give up?" asked between two, so
 * a stopping processor is not held for the whole lock timeout; after the timeout in all it fails
 * with {@link QueueEntryLockedException}.
 */
final class EntryLocks {
    /** How often a wait for a held lock asks whether to give up: 50 ms. */
    static final Duration GIVE_UP_CHECK = Duration.ofMillis(50);

    /** Code that runs under an entry's lock. */
    interface Body<T> {
        T call() throws IOException;
    }

    /** A lock wait was given up; nothing ran. No stack trace: it is expected, and caught. */
    static final class GaveUp extends RuntimeException {
        static final GaveUp INSTANCE = new GaveUp();

        private GaveUp() {
            super("lock wait given up", null, false, false);
        }
    }

    /** A slice of a lock wait ran out: the wait goes on. */
    private static final class SliceOver extends RuntimeException {
        static final SliceOver INSTANCE = new SliceOver();

        private SliceOver() {
            super("lock wait slice over", null, false, false);
        }
    }

    private final Path dir;
    private final Path locks;
    private final Duration timeout;

    EntryLocks(Path dir, Path locks, Duration timeout) {
        this.dir = dir;
        this.locks = locks;
        this.timeout = timeout;
    }

    Path lockFile(String id) {
        return locks.resolve(id + ".lock");
    }

    /**
     * Runs {@code body} under the entry's lock.
     *
     * @throws GaveUp when {@code giveUp} turned true while another holder kept the lock
     * @throws QueueEntryLockedException when the lock stayed taken for longer than the timeout
     */
    <T> T call(String id, BooleanSupplier giveUp, Body<T> body) {
        Path lock = lockFile(id);
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            while (true) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw timedOut(id);
                }
                Duration slice = Duration.ofNanos(Math.min(left, GIVE_UP_CHECK.toNanos()));
                try {
                    return FileLocks.withLock(lock, slice, () -> SliceOver.INSTANCE, body::call);
                } catch (SliceOver busy) {
                    if (giveUp.getAsBoolean()) {
                        throw GaveUp.INSTANCE;
                    }
                }
            }
        } catch (FileAlreadyExistsException e) {
            throw new HarnessException("queue entry " + id + " already exists in " + dir, e);
        } catch (IOException e) {
            throw new HarnessException("cannot lock queue entry " + lock + ": " + e
                    + (Files.isDirectory(dir) ? "" : " (the queue directory was deleted)"), e);
        }
    }

    private HarnessException timedOut(String id) {
        return new QueueEntryLockedException(id, "queue entry " + id + " stayed locked by another process for more than "
                + timeout.toMillis() + " ms (is a processor stuck? its lock file is " + lockFile(id) + ")");
    }
}
