package dev.harness4j.core.internal.util;

import dev.harness4j.api.HarnessException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * Runs code while holding an exclusive lock on a lock file, against other threads and other
 * processes alike: a JVM-wide lock striped by the lock file's path first (an OS file lock is
 * held per process, so two threads of one JVM must not both ask for it), then the OS lock
 * ({@code fcntl}), polled until the timeout. The lock file is created and never deleted.
 */
public final class FileLocks {
    /** The JVM-wide stripes: one JVM, one set, shared by every user of a lock file. */
    private static final ReentrantLock[] STRIPES = new ReentrantLock[64];
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

    static {
        for (int i = 0; i < STRIPES.length; i++) {
            STRIPES[i] = new ReentrantLock();
        }
    }

    /** Code that runs under the lock. */
    public interface Body<T> {
        T call() throws IOException;
    }

    private FileLocks() {}

    /**
     * Runs {@code body} holding the lock on {@code lockFile}.
     *
     * @param timeout how long to wait for the JVM's and the other processes' holders, in all
     * @param onTimeout the exception thrown when the lock stayed taken for longer (it should name
     *     what was locked and for how long)
     * @throws IOException when the lock file cannot be opened, or from the body
     * @throws HarnessException when the waiting thread is interrupted (its flag is kept)
     */
    public static <T> T withLock(Path lockFile, Duration timeout, Supplier<? extends RuntimeException> onTimeout,
            Body<T> body) throws IOException {
        ReentrantLock stripe = STRIPES[Math.floorMod(lockFile.hashCode(), STRIPES.length)];
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            if (!stripe.tryLock(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
                throw onTimeout.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new HarnessException("interrupted while waiting for the lock " + lockFile, e);
        }
        try (FileChannel ch = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            FileLock held = null;
            while (held == null) {
                try {
                    held = ch.tryLock();
                } catch (OverlappingFileLockException e) {
                    held = null; // cannot happen under the stripe; treated as "busy"
                }
                if (held == null) {
                    if (System.nanoTime() > deadline) {
                        throw onTimeout.get();
                    }
                    LockSupport.parkNanos(POLL_NANOS);
                }
            }
            try {
                return body.call();
            } finally {
                held.release();
            }
        } finally {
            stripe.unlock();
        }
    }
}
