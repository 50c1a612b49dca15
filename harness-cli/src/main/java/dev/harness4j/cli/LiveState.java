package dev.harness4j.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.bench.BenchSummary;
import dev.harness4j.bench.ResultRow;
import dev.harness4j.core.ResultIndex;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * What {@code harness4j serve} reads of a file state dir while a bench runs in another process,
 * never writing: the queue's entries ({@code queue/*.json}, {@code queue/finished/*.json}), the
 * results ({@link BenchSummary}), a running run's live output ({@code runs/<run id>/io/}) and a
 * cheap fingerprint of what changed (file and directory times, no result read).
 */
final class LiveState {
    /** The ids this view accepts in a URL (run ids, bench ids). */
    static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One queue entry, as much of it as the pages show. */
    record Entry(String id, String state, String runId, String task, String harness, String model, int trial,
            int attempts, Instant updatedAt, Instant notBefore, String lastOutcome, Long maxTokens, String maxCost) {
        String bench() {
            return LiveState.bench(task);
        }
    }

    private final Path stateDir;

    LiveState(Path stateDir) {
        this.stateDir = stateDir.toAbsolutePath().normalize();
    }

    Path stateDir() {
        return stateDir;
    }

    /** The bench of a task label {@code <bench>/<task>}, or {@code default}. */
    static String bench(String task) {
        int i = task == null ? -1 : task.indexOf('/');
        return i > 0 ? task.substring(0, i) : "default";
    }

    /** Every queue entry, pending and finished; an unreadable file is skipped (it is being written). */
    List<Entry> entries() {
        List<Entry> out = new ArrayList<>();
        read(stateDir.resolve("queue"), out);
        read(stateDir.resolve("queue/finished"), out);
        return out;
    }

    List<Entry> entries(String bench) {
        return entries().stream().filter(e -> e.bench().equals(bench)).toList();
    }

    private static void read(Path dir, List<Entry> out) {
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*.json")) {
            for (Path f : files) {
                try {
                    JsonNode n = JSON.readTree(f.toFile());
                    JsonNode spec = n.path("spec");
                    JsonNode limits = spec.path("limits");
                    out.add(new Entry(n.path("id").asText(), n.path("state").asText(), text(n, "run_id"),
                            text(spec, "task"), text(spec, "harness"), text(spec, "model"),
                            Math.max(1, spec.path("trial").asInt(1)), n.path("attempts").asInt(), instant(n, "updated_at"),
                            instant(n, "not_before"), text(n, "last_outcome"),
                            limits.hasNonNull("max_tokens") ? limits.get("max_tokens").asLong() : null,
                            text(limits, "max_cost_usd")));
                } catch (IOException | RuntimeException e) {
                    // written right now, or not an entry: the next look reads it
                }
            }
        } catch (IOException e) {
            // the directory went away: no entries there
        }
    }

    private static String text(JsonNode n, String field) {
        return n.hasNonNull(field) ? n.get(field).asText() : null;
    }

    private static Instant instant(JsonNode n, String field) {
        try {
            return n.hasNonNull(field) ? Instant.parse(n.get(field).asText()) : null;
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** Every result of the state dir. */
    BenchSummary summary() {
        return BenchSummary.read(ResultIndex.of(stateDir));
    }

    /** The benches named by the queue or the results, sorted. */
    TreeSet<String> benches(List<Entry> entries, BenchSummary summary) {
        TreeSet<String> ids = new TreeSet<>();
        entries.forEach(e -> ids.add(e.bench()));
        summary.rows().forEach(r -> ids.add(bench(r.task())));
        return ids;
    }

    /** The run id of a result row (its directory's last name). */
    static String runId(ResultRow r) {
        return Path.of(r.dir()).getFileName().toString();
    }

    /** The result directory of a run, when it has one. */
    Optional<Path> resultDir(String runId) {
        return ResultIndex.of(stateDir).runDirs().stream().filter(d -> d.getFileName().toString().equals(runId))
                .findFirst();
    }

    /** Where a running run's output grows ({@code runs/<run id>/io}). */
    Path liveIo(String runId) {
        return stateDir.resolve("runs").resolve(runId).resolve("io");
    }

    /**
     * A value that changes when the queue or the results change: the pending entries' names and
     * times, and the times of the finished-entries and results directories (an entry is moved
     * there after its result is written). Reads no file's content.
     */
    String fingerprint() {
        StringBuilder sb = new StringBuilder();
        Path queue = stateDir.resolve("queue");
        if (Files.isDirectory(queue)) {
            try (DirectoryStream<Path> files = Files.newDirectoryStream(queue, "*.json")) {
                for (Path f : files) {
                    sb.append(f.getFileName()).append('@').append(time(f)).append(';');
                }
            } catch (IOException e) {
                sb.append("unreadable;");
            }
        }
        sb.append(time(queue.resolve("finished"))).append(';').append(time(stateDir.resolve("results")));
        return Integer.toHexString(sb.toString().hashCode()) + ":" + sb.length();
    }

    private static long time(Path p) {
        try {
            return Files.getLastModifiedTime(p).to(java.util.concurrent.TimeUnit.NANOSECONDS);
        } catch (IOException e) {
            return 0;
        }
    }
}
