package dev.harness4j.core.queue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.HarnessException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded queue store: one JSON document per entry, {@code <dir>/<entryId>.json}, written
 * atomically (temp file + rename), so a reader sees a whole old or a whole new entry.
 *
 * <p>{@link #update} holds an exclusive OS file lock on {@code <entryId>.lock} around its
 * read-modify-write, so threads and processes sharing the directory never interleave on one
 * entry; the OS drops the lock when a process dies, so a {@code kill -9} leaves no stale lock.
 * File locks belong to the whole JVM (and closing any channel on the file may drop them), so
 * inside one JVM the lock file is only touched under a JVM-wide striped lock: a fixed table of
 * {@link ReentrantLock}s that mirrors the JVM-wide nature of the OS lock (the one static state
 * here, on purpose).
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
    private final ObjectMapper json = new ObjectMapper();

    /** A store in {@code dir} (created when missing) with {@link #DEFAULT_LOCK_TIMEOUT}. */
    public FileQueueStore(Path dir) {
        this(dir, DEFAULT_LOCK_TIMEOUT);
    }

    public FileQueueStore(Path dir, Duration lockTimeout) {
        Objects.requireNonNull(dir, "dir");
        this.lockTimeout = Objects.requireNonNull(lockTimeout, "lockTimeout");
        if (lockTimeout.isNegative() || lockTimeout.isZero()) {
            throw new IllegalArgumentException("lockTimeout must be positive, was " + lockTimeout);
        }
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
                return Files.deleteIfExists(file(id));
            } catch (IOException e) {
                throw new HarnessException("cannot remove queue entry " + file(id) + ": " + e.getMessage(), e);
            } finally {
                try {
                    Files.deleteIfExists(lockFile(id));
                } catch (IOException e) {
                    log.debug("lock file {} stays: {}", lockFile(id), e.toString());
                }
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
        Path tmp = dir.resolve("." + entry.id() + "." + UUID.randomUUID() + ".tmp");
        try {
            Files.write(tmp, json.writerWithDefaultPrettyPrinter().writeValueAsBytes(QueueEntryJson.toJson(entry)));
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new HarnessException("cannot write queue entry " + target + ": " + e.getMessage(), e);
        } finally {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException e) {
                log.debug("temp file {} stays: {}", tmp, e.toString());
            }
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
