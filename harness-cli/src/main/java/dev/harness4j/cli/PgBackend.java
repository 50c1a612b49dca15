package dev.harness4j.cli;

import dev.harness4j.bench.Bench;
import dev.harness4j.bench.BenchComparison;
import dev.harness4j.bench.BenchMetrics;
import dev.harness4j.bench.BenchPlan;
import dev.harness4j.bench.BenchReport;
import dev.harness4j.bench.BenchSummary;
import dev.harness4j.core.queue.RetryPolicy;
import dev.harness4j.postgres.PgBench;
import dev.harness4j.postgres.PgDatabase;
import dev.harness4j.postgres.PgQueue;
import dev.harness4j.postgres.PgResults;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The shared PostgreSQL database of {@code --db} as a bench's backend: {@code bench run} plans
 * the bench into the shared queue instead of running it here; summaries, comparisons and reports
 * read the database alone, on a machine that ran none of the runs (the report's run pages read
 * the artifacts stored with each result, {@link PgResults#materialize}, written to a scratch
 * directory deleted afterwards). The database is opened (and migrated) on first use.
 */
final class PgBackend implements BenchBackend {
    private final DbOptions db;
    private final String applicationName;
    private PgDatabase database;

    PgBackend(DbOptions db, String applicationName) {
        this.db = db;
        this.applicationName = applicationName;
    }

    private PgDatabase database() {
        if (database == null) {
            PgDatabase d = db.open(applicationName);
            try {
                d.migrate(); // fails fast: unreachable, wrong password, newer schema
            } catch (RuntimeException e) {
                d.close();
                throw e;
            }
            database = d;
        }
        return database;
    }

    /** Refuses {@code --force}: the shared queue runs each planned run once per bench. */
    @Override
    public void checkForce(boolean force) {
        if (force) {
            throw new IllegalArgumentException("--force cannot be used with --db: the shared queue runs each task,"
                    + " harness, model and trial of a bench once, whoever planned it. To run a bench again, plan it"
                    + " under a new id (--id), and compare the two with: harness4j bench compare --db URL --bench NEW"
                    + " --baseline OLD");
        }
    }

    @Override
    public int run(Bench bench, BenchPlan plan, PrintWriter out) {
        PgQueue queue = new PgQueue(database());
        PgBench.Queued q = PgBench.enqueue(plan, queue, RetryPolicy.DEFAULT);
        PgQueue.Counts n = queue.counts(q.bench());
        out.println("bench " + (q.bench() == null ? "(no id)" : q.bench()) + " on " + database.url() + ": "
                + q.added().size() + " of " + q.planned() + " runs queued (" + (q.planned() - q.added().size())
                + " were queued before); queue now: " + n.queued() + " queued, " + n.running() + " running, "
                + n.done() + " done, " + n.failed() + " failed. Start workers with: harness4j worker --db "
                + database.url());
        return Harness4j.OK;
    }

    @Override
    public BenchSummary summary(String id) {
        return new PgResults(database()).summary(id);
    }

    /** From the narrow columns the figures need ({@link PgResults#metrics}), no row per run. */
    @Override
    public BenchMetrics metrics(String id) {
        return new PgResults(database()).metrics(id);
    }

    @Override
    public BenchComparison compare(String id, String baseline, Path baselineStateDir) {
        BenchSummary now = summary(id);
        BenchSummary before = summary(baseline);
        if (now.rows().isEmpty() || before.rows().isEmpty()) {
            throw BenchBackend.noResults(now.rows().isEmpty() ? id : baseline, " on " + database.url());
        }
        return BenchComparison.of(before.rows(), now.rows());
    }

    @Override
    public void report(String id, String baseline, Path dir, PrintWriter out) throws IOException {
        PgResults results = new PgResults(database());
        BenchSummary s = results.summary(id);
        BenchComparison c = baseline == null ? null : BenchComparison.of(results.summary(baseline).rows(), s.rows());
        Files.createDirectories(dir);
        Path scratch = Files.createTempDirectory(dir, ".results-");
        try {
            results.materialize(id, scratch);
            Path written = BenchReport.write(scratch, s.rows(), results.metrics(id), c, dir);
            out.println("report: " + written + " (" + s.rows().size() + " results from " + database.url() + ")");
        } finally {
            deleteTree(scratch);
        }
    }

    @Override
    public void close() {
        if (database != null) {
            database.close();
        }
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> all = Files.walk(dir)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dir + ": " + e.getMessage(), e);
        }
    }
}
