package dev.harness4j.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.HarnessException;
import dev.harness4j.core.internal.capture.ResultStore;
import dev.harness4j.core.internal.util.Json;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds results in a state dir by task, harness, provider and model, from the {@code meta.json}
 * of each run (the directory names are sanitised, so they only narrow the search; the keys come
 * from the meta files). Results are never overwritten, so a run's keys are read once and kept;
 * a lookup re-lists only the combo directories that changed since the last one (their
 * modification time or link count moved). A lookup over 100,000 results reads no meta file that
 * it has read before. Thread-safe; several indexes (and JVMs) may read one state dir while runs
 * write to it.
 *
 * <p>The layout: {@code <stateDir>/results/<task>/<harness>__<provider>__<model>/<runId>/}, with
 * {@code default} as the task of runs that name none; directories whose names start with a dot
 * are a writer's temporary ones and are skipped.
 *
 * <pre>{@code
 * ResultIndex index = runner.results();   // or ResultIndex.of(stateDir)
 * for (StoredResult r : index.find(ResultQuery.all().harness("aider").model("gpt-4o"))) {
 *     System.out.println(r.runId() + " " + r.outcome() + " " + r.dir());
 * }
 * }</pre>
 */
public final class ResultIndex {
    private static final Logger log = LoggerFactory.getLogger(ResultIndex.class);

    private final Path resultsDir;
    private final ObjectMapper mapper = Json.mapper();
    private final ConcurrentMap<Path, Listing> listings = new ConcurrentHashMap<>();
    private final ConcurrentMap<Path, StoredResult> runs = new ConcurrentHashMap<>();

    private record Listing(FileTime modified, Object links, List<Path> runDirs) {}

    private ResultIndex(Path stateDir) {
        this.resultsDir = Objects.requireNonNull(stateDir, "stateDir").toAbsolutePath().normalize().resolve("results");
    }

    /** An index of {@code <stateDir>/results}; nothing is read until the first lookup. */
    public static ResultIndex of(Path stateDir) {
        return new ResultIndex(stateDir);
    }

    /** {@code <stateDir>/results}. */
    public Path resultsDir() {
        return resultsDir;
    }

    /** The result directory that a run with these keys writes (or wrote). */
    public Path dirFor(String task, String harness, String provider, String model, String runId) {
        return new ResultStore(resultsDir.getParent()).dirFor(task, harness, provider, model, runId);
    }

    /** Every run's result directory, without reading any {@code meta.json}; sorted. */
    public List<Path> runDirs() {
        List<Path> out = new ArrayList<>();
        for (Path task : subdirs(resultsDir)) {
            for (Path combo : subdirs(task)) {
                out.addAll(listing(combo).runDirs());
            }
        }
        out.sort(Comparator.naturalOrder());
        return out;
    }

    /** Every readable result; sorted by finish time, then run id. */
    public List<StoredResult> all() {
        return find(ResultQuery.all());
    }

    /**
     * The results the query matches, sorted by finish time, then run id. Runs whose {@code
     * meta.json} is missing or unreadable are left out (a summary lists them as problems).
     *
     * @throws HarnessException when the results directory exists but cannot be listed
     */
    public List<StoredResult> find(ResultQuery query) {
        Objects.requireNonNull(query, "query");
        List<Path> tasks = query.task() != null ? List.of(resultsDir.resolve(ResultStore.taskDir(query.task())))
                : subdirs(resultsDir);
        String comboPrefix = query.harness() == null ? null : ResultStore.sanitise(query.harness()) + "__";
        List<StoredResult> out = new ArrayList<>();
        for (Path task : tasks) {
            for (Path combo : subdirs(task)) {
                if (comboPrefix != null && !combo.getFileName().toString().startsWith(comboPrefix)) {
                    continue;
                }
                for (Path run : listing(combo).runDirs()) {
                    StoredResult r = runs.computeIfAbsent(run, this::read);
                    if (r != NONE_MARKER && query.matches(r)) {
                        out.add(r);
                    }
                }
            }
        }
        runs.values().removeIf(r -> r == NONE_MARKER); // unreadable now may be readable later (a writer still renaming)
        out.sort(Comparator.comparing(StoredResult::finishedAt).thenComparing(StoredResult::runId));
        return out;
    }

    /** Whether any result matches the query. */
    public boolean contains(ResultQuery query) {
        return !find(query).isEmpty();
    }

    private static final StoredResult NONE_MARKER = new StoredResult("-", null, "-", "-", null, "-", 1, "-",
            Instant.EPOCH, Path.of("-"));

    private Listing listing(Path combo) {
        FileTime modified;
        Object links;
        try {
            modified = Files.getLastModifiedTime(combo, LinkOption.NOFOLLOW_LINKS);
            links = linkCount(combo);
        } catch (IOException e) {
            listings.remove(combo);
            return new Listing(null, null, List.of());
        }
        Listing cached = listings.get(combo);
        if (cached != null && cached.modified().equals(modified) && Objects.equals(cached.links(), links)) {
            return cached;
        }
        Listing fresh = new Listing(modified, links, subdirs(combo));
        listings.put(combo, fresh);
        return fresh;
    }

    private static Object linkCount(Path dir) throws IOException {
        try {
            return Files.getAttribute(dir, "unix:nlink", LinkOption.NOFOLLOW_LINKS);
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            return null; // no unix view: the modification time alone decides
        }
    }

    private StoredResult read(Path runDir) {
        JsonNode m;
        try {
            m = mapper.readTree(runDir.resolve(ResultStore.META).toFile());
        } catch (IOException e) {
            log.debug("result {} is not readable: {}", runDir, e.toString());
            return NONE_MARKER;
        }
        String runId = text(m, "run_id");
        String harness = text(m, "harness");
        String provider = text(m, "provider");
        String resolved = text(m, "resolved_model");
        String outcome = text(m, "outcome");
        String finished = text(m, "finished_at");
        if (runId == null || harness == null || provider == null || resolved == null || outcome == null
                || finished == null) {
            log.debug("result {} lacks run_id, harness, provider, resolved_model, outcome or finished_at", runDir);
            return NONE_MARKER;
        }
        Instant finishedAt;
        try {
            finishedAt = Instant.parse(finished);
        } catch (RuntimeException e) {
            return NONE_MARKER;
        }
        int trial = m.path("trial").canConvertToInt() && m.path("trial").asInt() >= 1 ? m.path("trial").asInt() : 1;
        return new StoredResult(runId, text(m, "task"), harness, provider, text(m, "model"), resolved, trial, outcome,
                finishedAt, runDir);
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || !v.isTextual() ? null : v.textValue();
    }

    /** The sub-directories of a dir whose names do not start with a dot; none when it does not exist. */
    private static List<Path> subdirs(Path dir) {
        List<Path> out = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir,
                p -> !p.getFileName().toString().startsWith(".") && Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS))) {
            ds.forEach(out::add);
        } catch (NoSuchFileException e) {
            return List.of();
        } catch (IOException e) {
            if (!Files.isDirectory(dir)) {
                return List.of();
            }
            throw new HarnessException("cannot list the results directory " + dir + ": " + e.getMessage()
                    + "; check its permissions", e);
        }
        out.sort(Comparator.naturalOrder());
        return out;
    }
}
