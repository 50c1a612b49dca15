package dev.harness4j.core.capture;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.HarnessException;
import dev.harness4j.core.RunRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Writes run results to {@code <stateDir>/results/<harness>__<sanitised model>/}: {@code
 * meta.json}, {@code diff.patch}, {@code diffstat.txt}, {@code transcript.log} and {@code
 * events.jsonl}. Each file is written atomically (temp file + rename in the same directory);
 * {@code meta.json} is written last, so a new meta means the other files are complete. Secret
 * values go through a {@link Redactor} first. Thread-safe: two runs of the same combination
 * write one after the other.
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
            try {
                Files.createDirectories(dir);
                AtomicFiles.copyRedacted(files.patch(), dir.resolve(PATCH), redactor);
                AtomicFiles.copyRedacted(files.diffstat(), dir.resolve(DIFFSTAT), redactor);
                AtomicFiles.copyRedacted(files.transcript(), dir.resolve(TRANSCRIPT), redactor);
                AtomicFiles.copyRedacted(files.events(), dir.resolve(EVENTS), redactor);
                String meta = mapper.writerWithDefaultPrettyPrinter()
                        .writeValueAsString(MetaJson.of(mapper, record, redactor));
                AtomicFiles.writeString(dir.resolve(META), meta + "\n");
            } catch (IOException e) {
                throw new HarnessException("could not write the result of run " + record.runId() + " to " + dir
                        + ": " + e + "; check that the state dir is writable and the disk not full", e);
            }
        }
        return dir;
    }
}
