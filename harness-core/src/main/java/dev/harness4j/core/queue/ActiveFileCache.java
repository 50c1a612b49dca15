package dev.harness4j.core.queue;

import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The entries {@link FileQueueStore#listActive()} last parsed, each kept with the identity of the
 * file it came from (file key, size, modification time), so a listing parses only the files
 * that changed since the last one, and a processor's poll costs a directory read and a {@code
 * stat} per active entry rather than a parse per entry.
 *
 * <p>Every write of an entry is a rename of a new file, so a changed entry is a file with a new
 * identity, with one exception: the same inode number reused for the same size within one tick of
 * the file system's clock. So an entry is remembered only when its file was already older than
 * the clock's granularity when it was looked at ({@link #FINE_MARGIN_MS}, or {@link
 * #COARSE_MARGIN_MS} for a file whose time has no sub-second part, as on file systems that keep
 * whole seconds): any later write then carries a later time. A newer file is simply parsed
 * again at the next listing.
 */
final class ActiveFileCache {
    /** How old a file must be to be remembered, on a file system with sub-second times: 100 ms. */
    static final long FINE_MARGIN_MS = 100;
    /** The same on a file system that keeps whole seconds (or two, as FAT does): 3 s. */
    static final long COARSE_MARGIN_MS = 3_000;

    private record Seen(Object fileKey, long size, long modifiedNanos, QueueEntry entry) {
        boolean matches(BasicFileAttributes a) {
            return Objects.equals(fileKey, a.fileKey()) && size == a.size() && modifiedNanos == nanos(a);
        }
    }

    private final Map<Path, Seen> seen = new ConcurrentHashMap<>();

    /** The entry parsed from {@code file} when its attributes are still the ones it was parsed with, else null. */
    QueueEntry get(Path file, BasicFileAttributes now) {
        Seen s = seen.get(file);
        return s != null && s.matches(now) ? s.entry() : null;
    }

    /**
     * Remembers what {@code file} held, given the attributes read before it was parsed at {@code
     * statMillis} (wall clock): only when the file was older than the clock's granularity then.
     */
    void put(Path file, BasicFileAttributes before, long statMillis, QueueEntry entry) {
        if (before.fileKey() == null) {
            return; // no inode to tell a new file from an old one: always parse
        }
        long modified = before.lastModifiedTime().toMillis();
        long margin = before.lastModifiedTime().toInstant().getNano() == 0 ? COARSE_MARGIN_MS : FINE_MARGIN_MS;
        if (modified < statMillis - margin) {
            seen.put(file, new Seen(before.fileKey(), before.size(), nanos(before), entry));
        } else {
            seen.remove(file);
        }
    }

    /** Forgets the files a listing did not find as active entries. */
    void retain(Set<Path> files) {
        seen.keySet().retainAll(files);
    }

    private static long nanos(BasicFileAttributes a) {
        var t = a.lastModifiedTime().toInstant();
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }
}
