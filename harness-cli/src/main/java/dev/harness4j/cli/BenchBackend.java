package dev.harness4j.cli;

import dev.harness4j.bench.Bench;
import dev.harness4j.bench.BenchComparison;
import dev.harness4j.bench.BenchMetrics;
import dev.harness4j.bench.BenchPlan;
import dev.harness4j.bench.BenchSummary;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;

/**
 * Where the {@code bench} commands keep and read a bench's queue and results, picked once per
 * command ({@link #pick}): the state dir's files ({@link FileBackend}: {@code bench run} runs the
 * plan here), or the shared PostgreSQL database of {@code --db} ({@link PgBackend}: {@code bench
 * run} queues the plan for workers; summaries, comparisons and reports read the database alone).
 * Closing it closes what it opened (the database connection).
 */
interface BenchBackend extends AutoCloseable {
    /** The database of {@code db} when it names one, else the files of {@code stateDir}. */
    static BenchBackend pick(DbOptions db, Path stateDir, String applicationName) {
        return db.present() ? new PgBackend(db, applicationName) : new FileBackend(stateDir);
    }

    /** Refuses {@code --force} when this backend cannot honour it; called before anything is built or written. */
    void checkForce(boolean force);

    /** Runs the plan (files) or queues it for the workers (database); returns the exit code. */
    int run(Bench bench, BenchPlan plan, PrintWriter out) throws InterruptedException;

    /** The results of bench {@code id}, or every result for {@code null}. */
    BenchSummary summary(String id);

    /** The metrics of bench {@code id} (every result for {@code null}), for the leaderboard and task grid. */
    BenchMetrics metrics(String id);

    /**
     * Bench {@code id} compared with bench {@code baseline} (the files backend reads the baseline
     * from {@code baselineStateDir} when given).
     *
     * @throws IllegalArgumentException when either bench has no result
     */
    BenchComparison compare(String id, String baseline, Path baselineStateDir);

    /**
     * Writes the report directory of bench {@code id} (every result for {@code null}) into {@code
     * dir}, compared with {@code baseline} when not {@code null}; prints where it is.
     */
    void report(String id, String baseline, Path dir, PrintWriter out) throws IOException;

    @Override
    void close();

    /** The refusal of {@link BenchBackend#compare} for a bench without results. */
    static IllegalArgumentException noResults(String id, String where) {
        return new IllegalArgumentException("no results for bench '" + id + "'" + where
                + ": give a bench id that has results there (harness4j bench summary lists them)");
    }
}
