package dev.harness4j.cli;

import dev.harness4j.bench.BenchComparison;
import dev.harness4j.bench.BenchReport;
import dev.harness4j.bench.BenchSummary;
import dev.harness4j.bench.SummaryFormat;
import dev.harness4j.postgres.PgDatabase;
import dev.harness4j.postgres.PgResults;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * {@code bench compare --db} and {@code bench report --db}: from the database alone, on a machine
 * that ran none of the runs. The report's run pages read the artifacts stored with each result
 * ({@link PgResults#materialize}), written to a scratch directory deleted afterwards.
 */
final class DbReports {
    private DbReports() {}

    /** Refuses {@code --force} with {@code --db}: the shared queue runs each planned run once per bench. */
    static void refuseForce(boolean force) {
        if (force) {
            throw new IllegalArgumentException("--force cannot be used with --db: the shared queue runs each task,"
                    + " harness, model and trial of a bench once, whoever planned it. To run a bench again, plan it"
                    + " under a new id (--id), and compare the two with: harness4j bench compare --db URL --bench NEW"
                    + " --baseline OLD");
        }
    }

    static int compare(DbOptions db, String bench, String baseline, PrintWriter out) {
        try (PgDatabase database = db.open("harness4j-compare")) {
            database.migrate();
            PgResults results = new PgResults(database);
            BenchSummary now = results.summary(bench);
            BenchSummary before = results.summary(baseline);
            if (now.rows().isEmpty() || before.rows().isEmpty()) {
                throw new IllegalArgumentException("no results for bench '" + (now.rows().isEmpty() ? bench : baseline)
                        + "' on " + database.url() + ": give a bench id that has results there");
            }
            out.print(SummaryFormat.compare(BenchComparison.of(before.rows(), now.rows())));
            return Harness4j.OK;
        }
    }

    static int report(DbOptions db, String bench, String baseline, Path dir, PrintWriter out) throws IOException {
        try (PgDatabase database = db.open("harness4j-report")) {
            database.migrate();
            PgResults results = new PgResults(database);
            BenchSummary s = results.summary(bench);
            BenchComparison c = baseline == null ? null : BenchComparison.of(results.summary(baseline).rows(), s.rows());
            Files.createDirectories(dir);
            Path scratch = Files.createTempDirectory(dir, ".results-");
            try {
                results.materialize(bench, scratch);
                Path written = BenchReport.write(scratch, s.rows(), results.metrics(bench), c, dir);
                out.println("report: " + written + " (" + s.rows().size() + " results from " + database.url() + ")");
            } finally {
                deleteTree(scratch);
            }
            return Harness4j.OK;
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
