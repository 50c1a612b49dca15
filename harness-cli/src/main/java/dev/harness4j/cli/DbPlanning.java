package dev.harness4j.cli;

import dev.harness4j.api.RunSpec;
import dev.harness4j.bench.BenchPlan;
import dev.harness4j.bench.Combo;
import dev.harness4j.core.queue.RetryPolicy;
import dev.harness4j.postgres.PgDatabase;
import dev.harness4j.postgres.PgQueue;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** {@code bench run --db}: plans a bench into the shared PostgreSQL queue instead of running it here. */
final class DbPlanning {
    private DbPlanning() {}

    static int enqueue(DbOptions db, BenchPlan plan, PrintWriter out) {
        List<RunSpec> specs = new ArrayList<>();
        for (Combo c : plan.combos()) {
            specs.add(plan.spec(c));
        }
        String bench = plan.id().orElse(null);
        try (PgDatabase database = db.open("harness4j-plan")) {
            database.migrate();
            PgQueue queue = new PgQueue(database);
            List<String> added = queue.enqueue(bench, specs, RetryPolicy.DEFAULT);
            PgQueue.Counts n = queue.counts(bench);
            out.println("bench " + (bench == null ? "(no id)" : bench) + " on " + database.url() + ": " + added.size()
                    + " of " + specs.size() + " runs queued (" + (specs.size() - added.size())
                    + " were queued before); queue now: " + n.queued() + " queued, " + n.running() + " running, "
                    + n.done() + " done, " + n.failed() + " failed. Start workers with: harness4j worker --db "
                    + database.url());
            return Harness4j.OK;
        }
    }
}
