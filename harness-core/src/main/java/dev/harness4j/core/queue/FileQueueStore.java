package dev.harness4j.core.queue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.HarnessException;
import dev.harness4j.core.internal.Json;
import dev.harness4j.core.internal.capture.AtomicFiles;
import dev.harness4j.core.internal.Checks;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded queue store: one JSON document per entry, {@code <dir>/<entryId>.json}, written
 * atomically ({@link AtomicFiles}: temp file + rename), so a reader sees a whole old or a whole
 * new entry.
 *
 * <p>{@link #update} holds an exclusive OS file lock on {@code <entryId>.lock} around its
 * read-modify-write, so threads and processes sharing the directory never interleave on one
 * entry; the OS drops the lock when a process dies, so a {@code kill -9} leaves no stale lock.
 * File locks belong to the whole JVM (and closing any channel on the file may drop them), so
 * inside one JVM the lock file is only touched under a JVM-wide striped lock: a fixed table of
 * {@link ReentrantLock}s that mirrors the JVM-wide nature of the OS lock (the one static state
 * here, on purpose).
 *
 * <p>Lock files are never deleted, not even by {@link #remove}: a process blocked on a lock
 * holds the file's inode, so if the holder unlinked the file, the waiter would get a lock on the
 * unlinked inode while a third process created a new file and locked that one too, and both
 * would believe they own the entry. An empty {@code <entryId>.lock} per removed entry is the
 * price; delete them only offline, when no process uses the directory.
 *
 * <pre>{@code
 * QueueStore store = new FileQueueStore(stateDir.resolve("queue"));
 * }</pre>
 */
public final class FileQueueStore implements QueueStore {
    /** How long {@link #update} waits for another process's lock on an entry: 10 s. */
    public static final Duration DEFAULT_LOCK_TIMEOUT = Duration.ofSeconds(10);

    private static final Logger log = LoggerFactory.getLogger(FileQueueStore.class);
    private static final ReentrantLock[] JVM_STRIPES = new ReentrantLock[64];

    static {
        for (int i = 0; i < JVM_STRIPES.length; i++) {
            JVM_STRIPES[i] = new ReentrantLock();
        }
    }

    private final Path dir;
    private final Duration lockTimeout;
    private final ObjectMapper json = Json.mapper();

    /** A store in {@code dir} (created when missing) with {@link #DEFAULT_LOCK_TIMEOUT}. */
    public FileQueueStore(Path dir) {
        this(dir, DEFAULT_LOCK_TIMEOUT);
    }

    public FileQueueStore(Path dir, Duration lockTimeout) {
        Objects.requireNonNull(dir, "dir");
        this.lockTimeout = Checks.positive(lockTimeout, "lockTimeout");
        try {
            Files.createDirectories(dir);
            this.dir = dir.toRealPath();
        } catch (IOException e) {
            throw new HarnessException("cannot create the queue directory " + dir + ": " + e.getMessage()
                    + " (check the state dir's permissions)", e);
        }
    }

    /** The directory holding the entries. */
    public Path directory() {
        return dir;
    }

    @Override
    public void add(QueueEntry entry) {
        withLock(entry.id(), () -> {
            if (Files.exists(file(entry.id()))) {
                throw new HarnessException("queue entry " + entry.id() + " already exists in " + dir);
            }
            write(entry);
            return null;
        });
    }

    @Override
    public Optional<QueueEntry> get(String id) {
        return read(file(id));
    }

    @Override
    public List<QueueEntry> list() {
        List<QueueEntry> out = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*.json")) {
            for (Path f : files) {
                read(f).ifPresent(out::add);
            }
        } catch (IOException e) {
            throw new HarnessException("cannot list the queue directory " + dir + ": " + e.getMessage(), e);
        }
        out.sort(Comparator.comparing(QueueEntry::enqueuedAt).thenComparing(QueueEntry::id));
        return out;
    }

    @Override
    public Optional<QueueEntry> update(String id, UnaryOperator<QueueEntry> change) {
        return withLock(id, () -> {
            Optional<QueueEntry> current = read(file(id));
            if (current.isEmpty()) {
                return Optional.empty();
            }
            QueueEntry next = change.apply(current.get());
            if (next == null || next == current.get()) {
                return Optional.empty();
            }
            if (!next.id().equals(id)) {
                throw new IllegalArgumentException("an update must keep the entry id " + id + ", got " + next.id());
            }
            write(next);
            return Optional.of(next);
        });
    }

    @Override
    public boolean remove(String id) {
        return withLock(id, () -> {
            try {
                // the lock file stays (see the class doc): unlinking it under the lock would let a
                // process blocked on the old inode and one creating a new file both "hold" the lock
                return Files.deleteIfExists(file(id));
            } catch (IOException e) {
                throw new HarnessException("cannot remove queue entry " + file(id) + ": " + e.getMessage(), e);
            }
        });
    }

    private Path file(String id) {
        return dir.resolve(id + ".json");
    }

    private Path lockFile(String id) {
        return dir.resolve(id + ".lock");
    }

    private Optional<QueueEntry> read(Path f) {
        try {
            JsonNode node = json.readTree(Files.readAllBytes(f));
            return Optional.of(QueueEntryJson.fromJson(node));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException | RuntimeException e) {
            log.warn("skipping unreadable queue entry {}: {}", f, e.toString());
            return Optional.empty();
        }
    }

    private void write(QueueEntry entry) {
        Path target = file(entry.id());
        try {
            byte[] doc = json.writerWithDefaultPrettyPrinter().writeValueAsBytes(QueueEntryJson.toJson(entry));
            AtomicFiles.write(target, out -> out.write(doc));
        } catch (IOException e) {
            throw new HarnessException("cannot write queue entry " + target + ": " + e.getMessage()
                    + " (check the state dir's permissions and free space)", e);
        }
    }

    private interface Locked<T> {
        T call();
    }

    private <T> T withLock(String id, Locked<T> body) {
        Path lock = lockFile(id);
        ReentrantLock stripe = JVM_STRIPES[Math.floorMod(lock.hashCode(), JVM_STRIPES.length)];
        long deadline = System.nanoTime() + lockTimeout.toNanos();
        try {
            if (!stripe.tryLock(lockTimeout.toNanos(), TimeUnit.NANOSECONDS)) {
                throw timeout(id);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new HarnessException("interrupted while waiting for the lock on queue entry " + id, e);
        }
        try (FileChannel ch = FileChannel.open(lock, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            FileLock held = null;
            while (held == null) {
                try {
                    held = ch.tryLock();
                } catch (OverlappingFileLockException e) {
                    held = null; // cannot happen under the stripe; treated as "busy"
                }
                if (held == null) {
                    if (System.nanoTime() > deadline) {
                        throw timeout(id);
                    }
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
                }
            }
            try {
                return body.call();
            } finally {
                held.release();
            }
        } catch (FileAlreadyExistsException e) {
            throw new HarnessException("queue entry " + id + " already exists in " + dir, e);
        } catch (IOException e) {
            throw new HarnessException("cannot lock queue entry " + lock + ": " + e.getMessage(), e);
        } finally {
            stripe.unlock();
        }
    }

    private HarnessException timeout(String id) {
        return new HarnessException("queue entry " + id + " stayed locked by another process for more than "
                + lockTimeout.toMillis() + " ms (is a processor stuck? its lock file is " + lockFile(id) + ")");
    }

    @Override
    public String toString() {
        return "FileQueueStore[" + dir + "]";
    }
}
