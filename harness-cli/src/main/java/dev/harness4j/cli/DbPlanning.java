package dev.harness4j.cli;

import dev.harness4j.bench.BenchMetrics;
import dev.harness4j.bench.BenchPlan;
import dev.harness4j.bench.BenchSummary;
import dev.harness4j.bench.SummaryFormat;
import dev.harness4j.core.queue.RetryPolicy;
import dev.harness4j.postgres.PgBench;
import dev.harness4j.postgres.PgDatabase;
import dev.harness4j.postgres.PgQueue;
import dev.harness4j.postgres.PgResults;
import java.io.PrintWriter;

/**
 * {@code bench run --db}: plans a bench into the shared PostgreSQL queue instead of running it here;
 * {@code bench summary --db}: the summary from the database alone.
 */
final class DbPlanning {
    private DbPlanning() {}

    static int enqueue(DbOptions db, BenchPlan plan, PrintWriter out) {
        try (PgDatabase database = db.open("harness4j-plan")) {
            database.migrate();
            PgQueue queue = new PgQueue(database);
            PgBench.Queued q = PgBench.enqueue(plan, queue, RetryPolicy.DEFAULT);
            PgQueue.Counts n = queue.counts(q.bench());
            out.println("bench " + (q.bench() == null ? "(no id)" : q.bench()) + " on " + database.url() + ": "
                    + q.added().size() + " of " + q.planned() + " runs queued (" + (q.planned() - q.added().size())
                    + " were queued before); queue now: " + n.queued() + " queued, " + n.running() + " running, "
                    + n.done() + " done, " + n.failed() + " failed. Start workers with: harness4j worker --db "
                    + database.url());
            return Harness4j.OK;
        }
    }

    /** The leaderboard and task grid of one bench ({@code null}: all), from PgResults.metrics. */
    static int leaderboard(DbOptions db, String bench, PrintWriter out) {
        try (PgDatabase database = db.open("harness4j-summary")) {
            database.migrate();
            BenchMetrics m = new PgResults(database).metrics(bench);
            out.print(SummaryFormat.leaderboard(m));
            out.println();
            out.print(SummaryFormat.taskGrid(m));
            return Harness4j.OK;
        }
    }

    /** The results of one bench ({@code null}: all) as stored in the database. */
    static BenchSummary summary(DbOptions db, String bench) {
        try (PgDatabase database = db.open("harness4j-summary")) {
            database.migrate();
            return new PgResults(database).summary(bench);
        }
    }
}
