package dev.harness4j.cli;

import dev.harness4j.bench.BenchSummary;
import dev.harness4j.bench.SummaryFormat;
import dev.harness4j.postgres.PgDatabase;
import dev.harness4j.postgres.PgLiveView;
import dev.harness4j.postgres.PgResults;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The {@link LiveState} of the shared PostgreSQL database ({@code harness4j serve --db}): what
 * the workers recorded, live — the queue's entries with the worker that runs each ({@link
 * PgLiveView}), the results ({@link PgResults}), a finished run's page from its stored meta.json
 * and artifacts (written once to a scratch directory of this process, deleted on {@link
 * #close()}). A running run's output stays on its worker's machine; its page shows the result
 * once the worker records it. The bail buttons are off: a worker bails only what its own
 * process is asked to ({@code harness4j worker} on that machine).
 */
final class LiveDatabase implements LiveState {
    private final PgDatabase db;
    private final PgLiveView view;
    private final PgResults results;
    private final Path scratch;
    private final ConcurrentHashMap<String, Path> materialized = new ConcurrentHashMap<>();

    /** Serves {@code db} (migrated here: an unreachable database or a newer schema fails now), which it closes. */
    LiveDatabase(PgDatabase db) throws IOException {
        db.migrate();
        this.db = db;
        this.view = new PgLiveView(db);
        this.results = new PgResults(db);
        this.scratch = Files.createTempDirectory("harness4j-serve-");
    }

    @Override
    public String where() {
        return "database: " + db.url();
    }

    @Override
    public List<Entry> entries() {
        return view.entries(null).stream().map(e -> new Entry(e.id(), e.state(), e.runId(),
                e.task() != null ? e.task() : e.bench() != null ? e.bench() + "/" + e.id() : null, e.harness(), e.model(),
                e.trial(), e.attempts(), e.since(), e.notBefore(), e.lastOutcome(), e.maxTokens(),
                e.maxCostUsd() == null ? null : e.maxCostUsd().toPlainString(), e.worker())).toList();
    }

    @Override
    public BenchSummary summary() {
        return results.summary(null);
    }

    @Override
    public Optional<Path> resultDir(String runId) {
        Path done = materialized.get(runId);
        if (done != null) {
            return Optional.of(done);
        }
        synchronized (materialized) {
            Optional<Path> dir = materialized.containsKey(runId) ? Optional.of(materialized.get(runId))
                    : view.materializeRun(runId, scratch);
            dir.ifPresent(d -> materialized.put(runId, d)); // a recorded result never changes
            return dir;
        }
    }

    @Override
    public Optional<Path> liveIo(String runId) {
        return Optional.empty();
    }

    @Override
    public String fingerprint() {
        return view.fingerprint();
    }

    @Override
    public String compare(String bench, String baseline) {
        BenchSummary now = results.summary(bench);
        BenchSummary before = results.summary(baseline);
        if (now.rows().isEmpty() || before.rows().isEmpty()) {
            throw BenchBackend.noResults(now.rows().isEmpty() ? bench : baseline, " on " + db.url());
        }
        return SummaryFormat.compare(dev.harness4j.bench.BenchComparison.of(before.rows(), now.rows()));
    }

    /** None: {@code harness4j bench report --db URL --bench ID} writes one from the database. */
    @Override
    public Optional<Path> reportDir(String bench) {
        return Optional.empty();
    }

    @Override
    public Optional<String> noBail() {
        return Optional.of("bail from the worker's machine: the live view of a database does not reach its workers");
    }

    @Override
    public void bailRun(String runId) {
        throw new UnsupportedOperationException(noBail().orElseThrow());
    }

    @Override
    public void bailBench(String bench) {
        throw new UnsupportedOperationException(noBail().orElseThrow());
    }

    @Override
    public void close() {
        try {
            db.close();
        } finally {
            try (Stream<Path> all = Files.walk(scratch)) {
                all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException | UncheckedIOException e) {
                // a temp dir left behind
            }
        }
    }
}
