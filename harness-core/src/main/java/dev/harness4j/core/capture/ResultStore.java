package dev.harness4j.core.capture;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.HarnessException;
import dev.harness4j.core.RunRecord;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import dev.harness4j.core.workspace.SafeDelete;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes run results to {@code <stateDir>/results/<harness>__<sanitised model>/}: {@code
 * meta.json}, {@code diff.patch}, {@code diffstat.txt}, {@code transcript.log} and {@code
 * events.jsonl}. All five are written into a fresh sibling {@code results/.tmp-<runId>}, which
 * then replaces the combo's dir by renames ({@code .old-<runId>} aside, the new one in, the old
 * deleted): a reader sees the old set or the new set, never a mix (the dir is absent for the
 * moment between the two renames; readers retry, and skip dot-dirs). Secret values go through a
 * {@link Redactor} first. Thread-safe, also across runners and JVMs sharing a state dir: the last
 * writer of a combo wins with a whole set.
 *
 * <pre>{@code
 * ResultStore store = new ResultStore(stateDir);
 * Path dir = store.dirFor("opencode", "gemma4:31b");   // <stateDir>/results/opencode__gemma4-31b
 * }</pre>
 */
public final class ResultStore {
    public static final String META = "meta.json";
    public static final String PATCH = "diff.patch";
    public static final String DIFFSTAT = "diffstat.txt";
    public static final String TRANSCRIPT = "transcript.log";
    public static final String EVENTS = "events.jsonl";

    /**
     * How long a writer keeps trying to swap its result in while other writers of the combo
     * (other runners, other JVMs) keep landing theirs first: 30 s. Every lost round means another
     * writer finished, so this ends long before unless writers never stop coming.
     */
    private static final long MAX_SWAP_NANOS = TimeUnit.SECONDS.toNanos(30);

    private static final Logger log = LoggerFactory.getLogger(ResultStore.class);

    private final Path resultsDir;
    private final ObjectMapper mapper = dev.harness4j.core.Json.mapper();
    private final ConcurrentMap<Path, Object> locks = new ConcurrentHashMap<>();

    public ResultStore(Path stateDir) {
        this.resultsDir = Objects.requireNonNull(stateDir, "stateDir").toAbsolutePath().normalize().resolve("results");
    }

    /** {@code <stateDir>/results}. */
    public Path resultsDir() {
        return resultsDir;
    }

    /** The directory a harness and model's result goes to. */
    public Path dirFor(String harness, String model) {
        return resultsDir.resolve(combo(harness, model));
    }

    /** {@code <harness>__<sanitised model>}, the result directory's and pushed branch's name. */
    public static String combo(String harness, String model) {
        return sanitise(harness) + "__" + sanitise(model);
    }

    /**
     * Makes an id safe as one path element and in a branch name: every character but letters,
     * digits, {@code .}, {@code _} and {@code -} becomes {@code -} ({@code gemma4:31b} → {@code
     * gemma4-31b}, {@code openai/gpt-4o} → {@code openai-gpt-4o}); leading dots become {@code -}.
     */
    public static String sanitise(String id) {
        Objects.requireNonNull(id, "id");
        StringBuilder sb = new StringBuilder(id.length());
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '.' || c == '_' || c == '-';
            sb.append(ok ? c : '-');
        }
        for (int i = 0; i < sb.length() && sb.charAt(i) == '.'; i++) {
            sb.setCharAt(i, '-');
        }
        String out = sb.toString().replace("..", "-.");
        if (out.endsWith(".lock") || out.endsWith(".")) {
            out = out + "_";
        }
        return out.isEmpty() ? "default" : out;
    }

    /** The files a run produced, any of which may be {@code null} or missing (an empty file is written). */
    public record RunFiles(Path patch, Path diffstat, Path transcript, Path events) {
        public static final RunFiles NONE = new RunFiles(null, null, null, null);
    }

    /**
     * Writes the record's result into {@link RunRecord#resultDir()}, which must be below the
     * results dir.
     *
     * @throws HarnessException when the files cannot be written
     */
    public Path write(RunRecord record, RunFiles files, Redactor redactor) {
        Objects.requireNonNull(record, "record");
        Objects.requireNonNull(files, "files");
        Objects.requireNonNull(redactor, "redactor");
        Path dir = record.resultDir().toAbsolutePath().normalize();
        if (!dir.startsWith(resultsDir) || dir.equals(resultsDir)) {
            throw new IllegalArgumentException("result dir " + dir + " is not below " + resultsDir);
        }
        synchronized (locks.computeIfAbsent(dir, d -> new Object())) {
            Path tmp = resultsDir.resolve(".tmp-" + record.runId());
            try {
                Files.createDirectories(resultsDir);
                if (Files.exists(tmp, LinkOption.NOFOLLOW_LINKS)) {
                    SafeDelete.deleteBelow(resultsDir, tmp); // left by a crashed writer of this run
                }
                Files.createDirectory(tmp);
                // plain writes: the directory is this writer's own until swapIn renames it into place whole
                copyRedacted(files.patch(), tmp.resolve(PATCH), redactor);
                copyRedacted(files.diffstat(), tmp.resolve(DIFFSTAT), redactor);
                copyRedacted(files.transcript(), tmp.resolve(TRANSCRIPT), redactor);
                copyRedacted(files.events(), tmp.resolve(EVENTS), redactor);
                String meta = mapper.writerWithDefaultPrettyPrinter()
                        .writeValueAsString(MetaJson.of(mapper, record, redactor));
                Files.writeString(tmp.resolve(META), meta + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW);
                swapIn(tmp, dir, record.runId());
            } catch (IOException e) {
                deleteQuietly(tmp);
                throw new HarnessException("could not write the result of run " + record.runId() + " to " + dir
                        + ": " + e + "; check that the state dir is writable and the disk not full", e);
            }
        }
        return dir;
    }

    /** Copies {@code source} (nothing when it is {@code null} or missing) through the redactor into a new file. */
    private static void copyRedacted(Path source, Path target, Redactor redactor) throws IOException {
        try (OutputStream out = new BufferedOutputStream(
                Files.newOutputStream(target, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), 64 * 1024)) {
            if (source != null && Files.exists(source)) {
                try (InputStream in = Files.newInputStream(source)) {
                    redactor.copy(in, out);
                }
            }
        }
    }

    /**
     * Puts the complete new result dir in place of the old one: the old dir is renamed aside,
     * the new one renamed in, then the old one deleted. Another writer (another runner or JVM)
     * may land its dir in between: then this one moves that aside and tries again, so the last
     * writer wins with a whole set of files.
     */
    private void swapIn(Path tmp, Path dir, String runId) throws IOException {
        Path old = resultsDir.resolve(".old-" + runId);
        long deadline = System.nanoTime() + MAX_SWAP_NANOS;
        for (int attempt = 1; ; attempt++) {
            boolean movedAside = false;
            try {
                Files.move(dir, old);
                movedAside = true;
            } catch (NoSuchFileException e) {
                // first result of this combo, or another writer has it aside right now
            }
            try {
                Files.move(tmp, dir);
                if (movedAside) {
                    deleteQuietly(old);
                }
                return;
            } catch (FileSystemException e) {
                // Linux reports a rename onto a non-empty dir as a plain FileSystemException
                // ("Directory not empty"): what matters is that another writer's dir is there now
                // (checking that the dir exists is not enough: another writer may have moved it
                // aside again by now, which is the race too)
                boolean raced = e instanceof FileAlreadyExistsException || e instanceof DirectoryNotEmptyException
                        || (e.getReason() != null && e.getReason().toLowerCase(Locale.ROOT).contains("not empty"))
                        || Files.exists(dir, LinkOption.NOFOLLOW_LINKS);
                if (!raced) {
                    throw e;
                }
                if (movedAside) {
                    deleteQuietly(old); // superseded by the other writer's result
                }
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                // lost to another writer: a random pause, growing to 5 ms, so that writers in lock step spread out
                LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(1, Math.min(attempt, 25) * 200_000L));
            }
        }
    }

    private void deleteQuietly(Path p) {
        try {
            if (Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
                SafeDelete.deleteBelow(resultsDir, p);
            }
        } catch (RuntimeException e) {
            log.warn("could not remove {}; it is ignored by readers (a dot-dir)", p, e);
        }
    }
}
