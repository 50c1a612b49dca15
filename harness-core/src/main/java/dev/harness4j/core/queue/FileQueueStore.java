package dev.harness4j.core.queue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.HarnessException;
import dev.harness4j.core.internal.util.Checks;
import dev.harness4j.core.internal.util.Json;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded queue store: one JSON document per entry, written atomically (temp file +
 * rename), so a reader sees a whole old or a whole new entry. Entries that may still run
 * ({@code queued}, {@code running}, {@code interrupted}) live in {@code <dir>/<entryId>.json};
 * finished ones ({@code done}, {@code failed}) move to {@code <dir>/finished/<entryId>.json}, so
 * {@link #listActive()}, which a processor polls, reads only what can still run, however long the
 * history grows; and it parses only the files that changed since the last listing (the others are
 * recognised by their file key, size and time, see {@link ActiveFileCache}).
 *
 * <p>An entry's id is its file name. A file in the active directory that is not a readable entry
 * of the id its name says (a stray copy, a hand edit, a document from another schema) or that
 * duplicates a finished entry is moved once to {@code <dir>/quarantine/}, with one warning naming
 * it, and never read again.
 *
 * <p>{@link #update} holds an exclusive OS file lock on {@code <dir>/locks/<entryId>.lock} around
 * its read-modify-write, so threads and processes sharing the directory never interleave on one
 * entry; the OS drops the lock when a process dies, so a {@code kill -9} leaves no stale lock.
 * File locks belong to the whole JVM (and closing any channel on the file may drop them), so
 * inside one JVM the lock file is only touched under a JVM-wide striped lock: a fixed table of
 * {@link ReentrantLock}s that mirrors the JVM-wide nature of the OS lock (the one static state
 * here, on purpose). A lock held by another process for longer than the lock timeout fails the
 * call with {@link QueueEntryLockedException}.
 *
 * <p>Lock files are never deleted, not even by {@link #remove}: a process blocked on a lock
 * holds the file's inode, so if the holder unlinked the file, the waiter would get a lock on the
 * unlinked inode while a third process created a new file and locked that one too, and both
 * would believe they own the entry. An empty {@code locks/<entryId>.lock} per removed entry is the
 * price; delete them only offline, when no process uses the directory.
 *
 * <p>The store creates its directories once, when it is built: if the directory is deleted
 * under it, every later call fails and nothing is created again.
 *
 * <pre>{@code
 * QueueStore store = new FileQueueStore(stateDir.resolve("queue"));
 * }</pre>
 */
public final class FileQueueStore implements QueueStore {
    /** How long {@link #update} waits for another process's lock on an entry: 10 s. */
    public static final Duration DEFAULT_LOCK_TIMEOUT = Duration.ofSeconds(10);
    /** How often a wait for a held lock asks whether to give up ({@link #update(String, UnaryOperator, BooleanSupplier)}): 50 ms. */
    public static final Duration GIVE_UP_CHECK = EntryLocks.GIVE_UP_CHECK;

    private static final Logger log = LoggerFactory.getLogger(FileQueueStore.class);
    private static final String SUFFIX = ".json";

    private final Path dir;
    private final Path finished;
    private final Path quarantine;
    private final EntryLocks entryLocks;
    private final ObjectMapper json = Json.mapper();
    /** Files that could not be moved aside: warned about once, skipped after. */
    private final Set<Path> unmovable = ConcurrentHashMap.newKeySet();
    /** What the last listings parsed, kept while the files are unchanged. */
    private final ActiveFileCache parsed = new ActiveFileCache();

    /** A store in {@code dir} (created when missing) with {@link #DEFAULT_LOCK_TIMEOUT}. */
    public FileQueueStore(Path dir) {
        this(dir, DEFAULT_LOCK_TIMEOUT);
    }

    public FileQueueStore(Path dir, Duration lockTimeout) {
        Objects.requireNonNull(dir, "dir");
        Checks.positive(lockTimeout, "lockTimeout");
        try {
            Files.createDirectories(dir);
            this.dir = dir.toRealPath();
            this.finished = Files.createDirectories(this.dir.resolve("finished"));
            this.entryLocks = new EntryLocks(this.dir, Files.createDirectories(this.dir.resolve("locks")), lockTimeout);
            this.quarantine = Files.createDirectories(this.dir.resolve("quarantine"));
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
            if (Files.exists(active(entry.id())) || Files.exists(finishedFile(entry.id()))) {
                throw new HarnessException("queue entry " + entry.id() + " already exists in " + dir);
            }
            write(entry);
            return null;
        });
    }

    @Override
    public Optional<QueueEntry> get(String id) {
        if (!QueueEntry.isValidId(id)) {
            return Optional.empty();
        }
        Optional<QueueEntry> e = read(active(id), id);
        return e.isPresent() ? e : read(finishedFile(id), id);
    }

    /** Every entry, finished ones included: reads the whole history. */
    @Override
    public List<QueueEntry> list() {
        List<QueueEntry> out = listActive();
        List<QueueEntry> all = new ArrayList<>(out);
        Set<String> seen = new HashSet<>();
        out.forEach(e -> seen.add(e.id()));
        for (Path f : jsonFiles(finished)) {
            String id = idOf(f);
            if (id != null && !seen.contains(id)) {
                read(f, id).ifPresent(all::add);
            }
        }
        all.sort(ORDER);
        return all;
    }

    /** The entries in the active directory only: the cost follows what can still run, not the history. */
    @Override
    public List<QueueEntry> listActive() {
        List<QueueEntry> out = new ArrayList<>();
        Set<Path> good = new HashSet<>();
        for (Path f : jsonFiles(dir)) {
            if (unmovable.contains(f)) {
                continue;
            }
            String id = idOf(f);
            long statMillis = System.currentTimeMillis();
            BasicFileAttributes attrs = id == null ? null : attributes(f);
            QueueEntry known = attrs == null ? null : parsed.get(f, attrs);
            Optional<QueueEntry> e = known != null ? Optional.of(known) : id == null ? Optional.empty() : readQuietly(f);
            if (e.isPresent() && e.get().id().equals(id) && !e.get().state().isTerminal()
                    && !Files.exists(finishedFile(id))) {
                out.add(e.get());
                good.add(f);
                if (known == null && attrs != null) {
                    parsed.put(f, attrs, statMillis, e.get());
                }
            } else if (Files.exists(f)) {
                try {
                    settle(f, id).ifPresent(out::add);
                } catch (QueueEntryLockedException busy) {
                    log.debug("left {} for the next listing: {}", f, busy.getMessage());
                }
            }
        }
        parsed.retain(good);
        out.sort(ORDER);
        return out;
    }

    /** The file's attributes, or null when they cannot be read (then the file is parsed, as before). */
    private static BasicFileAttributes attributes(Path f) {
        try {
            return Files.readAttributes(f, BasicFileAttributes.class);
        } catch (IOException e) {
            return null;
        }
    }

    @Override
    public Optional<QueueEntry> update(String id, UnaryOperator<QueueEntry> change) {
        return update(id, change, () -> false);
    }

    /**
     * {@inheritDoc} A wait for another process's lock on the entry is given up within {@link
     * #GIVE_UP_CHECK} of {@code giveUp} turning true.
     */
    @Override
    public Optional<QueueEntry> update(String id, UnaryOperator<QueueEntry> change, BooleanSupplier giveUp) {
        Objects.requireNonNull(giveUp, "giveUp");
        if (!QueueEntry.isValidId(id)) {
            return Optional.empty();
        }
        try {
            return entryLocks.call(id, giveUp, () -> {
                Optional<QueueEntry> current = current(id);
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
        } catch (EntryLocks.GaveUp e) {
            return Optional.empty();
        }
    }

    @Override
    public boolean remove(String id) {
        if (!QueueEntry.isValidId(id)) {
            return false;
        }
        return withLock(id, () -> {
            try {
                // the lock file stays (see the class doc): unlinking it under the lock would let a
                // process blocked on the old inode and one creating a new file both "hold" the lock
                boolean a = Files.deleteIfExists(active(id));
                return Files.deleteIfExists(finishedFile(id)) || a;
            } catch (IOException e) {
                throw new HarnessException("cannot remove queue entry " + id + " from " + dir + ": " + e.getMessage(), e);
            }
        });
    }

    private static final Comparator<QueueEntry> ORDER =
            Comparator.comparing(QueueEntry::enqueuedAt).thenComparing(QueueEntry::id);

    private Path active(String id) {
        return dir.resolve(id + SUFFIX);
    }

    private Path finishedFile(String id) {
        return finished.resolve(id + SUFFIX);
    }

    /** The id a file name says, or null when the name is no entry id. */
    private static String idOf(Path f) {
        String name = f.getFileName().toString();
        String id = name.substring(0, name.length() - SUFFIX.length());
        return QueueEntry.isValidId(id) ? id : null;
    }

    private List<Path> jsonFiles(Path in) {
        List<Path> out = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(in, "*" + SUFFIX)) {
            files.forEach(out::add);
        } catch (IOException e) {
            throw new HarnessException("cannot list the queue directory " + in + ": " + e
                    + (Files.isDirectory(dir) ? "" : " (the queue directory was deleted)"), e);
        }
        return out;
    }

    /**
     * Under the entry's lock, puts an active-directory file that is not a plain active entry where
     * it belongs: a finished entry moves to {@code finished/}, a stale duplicate of a finished
     * one and anything unreadable or misnamed go to {@code quarantine/}.
     *
     * @return the entry when the file turned out to be a good active entry after all
     */
    private Optional<QueueEntry> settle(Path f, String id) {
        if (id == null) {
            quarantine(f, "its name is not an entry id");
            return Optional.empty();
        }
        return withLock(id, () -> settleLocked(f, id));
    }

    private Optional<QueueEntry> settleLocked(Path f, String id) {
        {
            Optional<QueueEntry> e;
            try {
                e = Optional.of(parse(f));
            } catch (NoSuchFileException gone) {
                return Optional.empty();
            } catch (IOException | RuntimeException bad) {
                quarantine(f, "it is not a readable queue entry (" + bad + ")");
                return Optional.empty();
            }
            if (!e.get().id().equals(id)) {
                quarantine(f, "its content is entry " + e.get().id() + ", not " + id + " as its name says");
                return Optional.empty();
            }
            Optional<QueueEntry> done = readQuietly(finishedFile(id));
            if (done.isPresent()) {
                if (done.get().updatedAt().isBefore(e.get().updatedAt())) {
                    quarantine(finishedFile(id), "a newer copy of entry " + id + " is active");
                } else {
                    quarantine(f, "it duplicates the finished entry " + finishedFile(id));
                    return Optional.empty();
                }
            }
            if (e.get().state().isTerminal()) {
                write(e.get()); // moves it to finished/
                return Optional.empty();
            }
            return e;
        }
    }

    /** The entry under its lock, settling a duplicate left by a crash between two renames. */
    private Optional<QueueEntry> current(String id) {
        Path a = active(id);
        if (Files.exists(a)) {
            return settleLocked(a, id).or(() -> read(finishedFile(id), id));
        }
        return read(finishedFile(id), id);
    }

    private void quarantine(Path f, String why) {
        String name = f.getFileName().toString();
        Path target = quarantine.resolve(name);
        try {
            for (int i = 1; Files.exists(target); i++) {
                target = quarantine.resolve(name + "." + i);
            }
            Files.move(f, target);
            log.warn("moved {} aside to {}: {}", f, target, why);
        } catch (NoSuchFileException e) {
            // gone meanwhile: nothing to do
        } catch (IOException e) {
            if (unmovable.add(f)) {
                log.warn("ignoring {} ({}); it could not be moved aside to {}: {}", f, why, quarantine, e.toString());
            }
        }
    }

    private QueueEntry parse(Path f) throws IOException {
        JsonNode node = json.readTree(Files.readAllBytes(f));
        return QueueEntryJson.fromJson(node);
    }

    private Optional<QueueEntry> readQuietly(Path f) {
        try {
            return Optional.of(parse(f));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** The entry in {@code f} when it is readable and is entry {@code id}; a bad file is left to {@link #listActive()}. */
    private Optional<QueueEntry> read(Path f, String id) {
        try {
            QueueEntry e = parse(f);
            return e.id().equals(id) ? Optional.of(e) : Optional.empty();
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException | RuntimeException e) {
            log.debug("unreadable queue entry {}: {}", f, e.toString());
            return Optional.empty();
        }
    }

    /** Writes the entry where its state belongs, then removes a copy in the other directory. */
    private void write(QueueEntry entry) {
        boolean terminal = entry.state().isTerminal();
        Path target = terminal ? finishedFile(entry.id()) : active(entry.id());
        Path other = terminal ? active(entry.id()) : finishedFile(entry.id());
        try {
            byte[] doc = json.writerWithDefaultPrettyPrinter().writeValueAsBytes(QueueEntryJson.toJson(entry));
            Path tmp = Files.createTempFile(target.getParent(), "." + target.getFileName() + ".", ".tmp");
            try {
                Files.write(tmp, doc);
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } finally {
                Files.deleteIfExists(tmp);
            }
            Files.deleteIfExists(other);
        } catch (IOException e) {
            throw new HarnessException("cannot write queue entry " + target + ": " + e
                    + (Files.isDirectory(dir) ? " (check the state dir's permissions and free space)"
                            : " (the queue directory was deleted)"), e);
        }
    }

    private <T> T withLock(String id, EntryLocks.Body<T> body) {
        return entryLocks.call(id, () -> false, body);
    }

    @Override
    public String toString() {
        return "FileQueueStore[" + dir + "]";
    }
}
