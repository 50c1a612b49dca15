package dev.harness4j.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.bench.BailRequests;
import dev.harness4j.bench.BenchSummary;
import dev.harness4j.core.ResultIndex;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The {@link LiveState} of a file state dir: what {@code harness4j serve} reads of it while a bench runs in another process,
 * never writing: the queue's entries ({@code queue/*.json}, {@code queue/finished/*.json}), the
 * results ({@link BenchSummary}), a running run's live output ({@code runs/<run id>/io/}) and a
 * cheap fingerprint of what changed (file and directory times, no result read).
 */
final class LiveFiles implements LiveState {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Path stateDir;

    LiveFiles(Path stateDir) {
        this.stateDir = stateDir.toAbsolutePath().normalize();
    }

    Path stateDir() {
        return stateDir;
    }

    @Override
    public String where() {
        return "state dir: " + stateDir;
    }

    /** Every queue entry, pending and finished; an unreadable file is skipped (it is being written). */
    @Override
    public List<Entry> entries() {
        List<Entry> out = new ArrayList<>();
        read(stateDir.resolve("queue"), out);
        read(stateDir.resolve("queue/finished"), out);
        return out;
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
                            text(limits, "max_cost_usd"), null));
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

    @Override
    public BenchSummary summary() {
        return BenchSummary.read(ResultIndex.of(stateDir));
    }

    @Override
    public Optional<Path> resultDir(String runId) {
        return ResultIndex.of(stateDir).runDirs().stream().filter(d -> d.getFileName().toString().equals(runId))
                .findFirst();
    }

    /** {@code runs/<run id>/io}. */
    @Override
    public Optional<Path> liveIo(String runId) {
        return Optional.of(stateDir.resolve("runs").resolve(runId).resolve("io"));
    }

    @Override
    public String compare(String bench, String baseline) {
        return dev.harness4j.bench.SummaryFormat.compare(new FileBackend(stateDir).compare(bench, baseline, null));
    }

    @Override
    public Optional<Path> reportDir(String bench) {
        return Optional.of(stateDir.resolve(dev.harness4j.bench.Bench.REPORT_DIR).resolve(bench));
    }

    @Override
    public Optional<String> noBail() {
        return Optional.empty();
    }

    @Override
    public void bailRun(String runId) throws IOException {
        BailRequests.requestRun(stateDir, runId);
    }

    @Override
    public void bailBench(String bench) throws IOException {
        BailRequests.requestBench(stateDir, bench);
    }

    @Override
    public void close() {
    }

    /**
     * A value that changes when the queue or the results change: the pending entries' names and
     * times, and the times of the finished-entries and results directories (an entry is moved
     * there after its result is written). Reads no file's content.
     */
    @Override
    public String fingerprint() {
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
