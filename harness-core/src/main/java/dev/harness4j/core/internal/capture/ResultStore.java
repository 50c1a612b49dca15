package dev.harness4j.core.internal.capture;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.HarnessException;
import dev.harness4j.core.RunRecord;
import dev.harness4j.core.internal.workspace.SafeDelete;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes run results, one directory per run that is never overwritten: {@code
 * <stateDir>/results/<task>/<harness>__<provider>__<model>/<runId>/} with {@code meta.json},
 * {@code diff.patch}, {@code diffstat.txt}, {@code transcript.log} and {@code events.jsonl}
 * (each path element {@linkplain #sanitise sanitised}; a run without a task goes under {@value
 * #NO_TASK}). All five are written into a fresh {@code results/.tmp-<runId>}, which is then
 * renamed into place whole: a reader sees the complete set or nothing (readers skip dot-dirs).
 * Secret values go through a {@link Redactor} first. Thread-safe, also across runners and JVMs
 * sharing a state dir (run ids are unique, so writers never meet).
 *
 * <pre>{@code
 * ResultStore store = new ResultStore(stateDir);
 * Path dir = store.dirFor("fix-bug", "opencode", "local", "gemma4:31b", runId);
 * // <stateDir>/results/fix-bug/opencode__local__gemma4-31b/<runId>
 * }</pre>
 */
public final class ResultStore {
    public static final String META = "meta.json";
    public static final String PATCH = "diff.patch";
    public static final String DIFFSTAT = "diffstat.txt";
    public static final String TRANSCRIPT = "transcript.log";
    public static final String EVENTS = "events.jsonl";
    /** The metering proxy's per-request records (written only for a metered run). */
    public static final String REQUESTS = "requests.jsonl";
    /** The task directory of runs that name no task. */
    public static final String NO_TASK = "default";

    private static final Logger log = LoggerFactory.getLogger(ResultStore.class);

    private final Path resultsDir;
    private final ObjectMapper mapper = dev.harness4j.core.internal.util.Json.mapper();

    public ResultStore(Path stateDir) {
        this.resultsDir = Objects.requireNonNull(stateDir, "stateDir").toAbsolutePath().normalize().resolve("results");
    }

    /** {@code <stateDir>/results}. */
    public Path resultsDir() {
        return resultsDir;
    }

    /**
     * The directory one run's result goes to: {@code results/<task>/<harness>__<provider>__<model>/<runId>}.
     *
     * @param task the task label, or {@code null} ({@value #NO_TASK})
     */
    public Path dirFor(String task, String harness, String provider, String model, String runId) {
        return resultsDir.resolve(taskDir(task)).resolve(combo(harness, provider, model)).resolve(sanitise(runId));
    }

    /** The task's directory name below {@code results/}: the sanitised task, or {@value #NO_TASK}. */
    public static String taskDir(String task) {
        return task == null || task.isBlank() ? NO_TASK : sanitise(task);
    }

    /** {@code <harness>__<provider>__<model>}, sanitised: a combo's directory name below its task's. */
    public static String combo(String harness, String provider, String model) {
        return sanitise(harness) + "__" + sanitise(provider) + "__" + sanitise(model);
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

    /**
     * The files a run produced, any of which may be {@code null} or missing (an empty file is
     * written): the meter's {@code requests.jsonl} when the run was metered, and further files by
     * name (an {@code AfterHarness} step's; a missing one is skipped).
     */
    public record RunFiles(Path patch, Path diffstat, Path transcript, Path events, Path requests,
            Map<String, Path> extra) {
        public static final RunFiles NONE = new RunFiles(null, null, null, null);

        public RunFiles {
            extra = Map.copyOf(Objects.requireNonNull(extra, "extra"));
        }

        /** The files of a run without metering and without further files. */
        public RunFiles(Path patch, Path diffstat, Path transcript, Path events) {
            this(patch, diffstat, transcript, events, null, Map.of());
        }
    }

    /** Whether {@code name} is one of the files this store writes itself. */
    public static boolean isOwnFile(String name) {
        return name.equals(META) || name.equals(PATCH) || name.equals(DIFFSTAT) || name.equals(TRANSCRIPT)
                || name.equals(EVENTS) || name.equals(REQUESTS);
    }

    /**
     * Writes the record's result into {@link RunRecord#resultDir()}, which must be below the
     * results dir and must not exist yet: a result is never overwritten.
     *
     * @throws HarnessException when the files cannot be written, or the run's directory exists
     */
    public Path write(RunRecord record, RunFiles files, Redactor redactor) {
        Objects.requireNonNull(record, "record");
        Objects.requireNonNull(files, "files");
        Objects.requireNonNull(redactor, "redactor");
        Path dir = record.resultDir().toAbsolutePath().normalize();
        if (!dir.startsWith(resultsDir) || dir.equals(resultsDir)) {
            throw new IllegalArgumentException("result dir " + dir + " is not below " + resultsDir);
        }
        Path tmp = resultsDir.resolve(".tmp-" + sanitise(record.runId()));
        if (!Files.isDirectory(resultsDir.getParent())) {
            // never re-create a state dir deleted under a running runner
            throw new HarnessException("the state dir " + resultsDir.getParent() + " is gone (deleted while run "
                    + record.runId() + " went on?); its result was not written and nothing was re-created");
        }
        try {
            Files.createDirectories(resultsDir);
            if (Files.exists(tmp, LinkOption.NOFOLLOW_LINKS)) {
                SafeDelete.deleteBelow(resultsDir, tmp); // left by a crashed writer of this run
            }
            Files.createDirectory(tmp);
            // plain writes: the directory is this writer's own until it is renamed into place whole
            copyRedacted(files.patch(), tmp.resolve(PATCH), redactor);
            copyRedacted(files.diffstat(), tmp.resolve(DIFFSTAT), redactor);
            copyRedacted(files.transcript(), tmp.resolve(TRANSCRIPT), redactor);
            copyRedacted(files.events(), tmp.resolve(EVENTS), redactor);
            if (files.requests() != null) {
                copyRedacted(files.requests(), tmp.resolve(REQUESTS), redactor);
            }
            for (Map.Entry<String, Path> e : files.extra().entrySet()) {
                if (Files.isDirectory(e.getValue(), LinkOption.NOFOLLOW_LINKS) && !isOwnFile(e.getKey())) {
                    copyDirRedacted(e.getValue(), tmp.resolve(sanitise(e.getKey())), redactor);
                } else if (Files.exists(e.getValue()) && !isOwnFile(e.getKey())) {
                    copyRedacted(e.getValue(), tmp.resolve(sanitise(e.getKey())), redactor);
                }
            }
            String meta = mapper.writerWithDefaultPrettyPrinter()
                    .writeValueAsString(MetaJson.of(mapper, record, redactor));
            Files.writeString(tmp.resolve(META), meta + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW);
            Files.createDirectories(dir.getParent());
            try {
                Files.move(tmp, dir, StandardCopyOption.ATOMIC_MOVE);
            } catch (FileSystemException e) {
                if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
                    throw new HarnessException("a result of run " + record.runId() + " already exists at " + dir
                            + "; results are never overwritten, so each run needs its own run id", e);
                }
                throw e;
            }
        } catch (IOException e) {
            deleteQuietly(tmp);
            throw new HarnessException("could not write the result of run " + record.runId() + " to " + dir
                    + ": " + e + "; check that the state dir is writable and the disk not full", e);
        } catch (RuntimeException e) {
            deleteQuietly(tmp);
            throw e;
        }
        return dir;
    }

    /** Copies the regular files directly in {@code source} (not below) through the redactor into a new directory. */
    private static void copyDirRedacted(Path source, Path target, Redactor redactor) throws IOException {
        Files.createDirectory(target);
        try (var files = Files.list(source)) {
            for (Path f : (Iterable<Path>) files.sorted()::iterator) {
                if (Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)) {
                    copyRedacted(f, target.resolve(sanitise(f.getFileName().toString())), redactor);
                }
            }
        }
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
