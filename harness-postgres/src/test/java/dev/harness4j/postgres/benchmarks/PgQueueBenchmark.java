package dev.harness4j.postgres.benchmarks;

import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.RunSpec;
import dev.harness4j.bench.BenchMetrics;
import dev.harness4j.bench.BenchSummary;
import dev.harness4j.bench.SummaryFormat;
import dev.harness4j.core.queue.QueueEntry;
import dev.harness4j.core.queue.RetryPolicy;
import dev.harness4j.core.queue.RunQueue;
import dev.harness4j.postgres.PgDatabase;
import dev.harness4j.postgres.PgLease;
import dev.harness4j.postgres.PgQueue;
import dev.harness4j.postgres.PgResults;
import dev.harness4j.postgres.PgServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * What one PostgreSQL gives the shared queue, side by side with the file store: claim throughput
 * (claim + record the end, on fake instant runs) with 1, 4 and 16 workers, each with a
 * connection of its own; the same through {@link RunQueue} on the embedded file store, with the
 * same number of threads in one JVM; and a summary (rows + metrics) over N results, from the
 * database and from N meta.json files. Starts its own PostgreSQL ({@link PgServer}).
 *
 * <p>Arguments: {@code <claims per measurement> <worker counts, e.g. 1,4,16> <summary rows> [file rows, default the
 * summary rows; 0 skips the file side]}.
 */
public final class PgQueueBenchmark {
    private PgQueueBenchmark() {}

    public static void main(String[] args) throws Exception {
        int claims = Integer.parseInt(args[0]);
        int[] workers = Arrays.stream(args[1].split(",")).mapToInt(Integer::parseInt).toArray();
        int rows = Integer.parseInt(args[2]);
        int fileRows = args.length > 3 ? Integer.parseInt(args[3]) : rows;
        PgServer pg = PgServer.shared();
        int fileClaims = Math.min(claims, 500);
        System.out.printf(Locale.ROOT, "claims: %d fake instant runs per measurement (claim, then record the end);"
                + " the file store with %d (each claim there lists every active entry's file)%n", claims, fileClaims);
        System.out.println("(half the runs are of harness fake, half of fake-2; capped: a cap on fake that never binds;"
                + " both capped: one on each, so the claims of the two take two different cap locks)");
        System.out.printf(Locale.ROOT, "%-8s %14s %20s %25s %14s%n", "workers", "pg claims/s", "pg claims/s (capped)",
                "pg claims/s (both capped)", "file claims/s");
        for (int n : workers) {
            double pgRate = pgClaims(pg, claims, n, 0);
            double pgCapped = pgClaims(pg, claims, n, 1);
            double pgBoth = pgClaims(pg, claims, n, 2);
            double fileRate = fileClaims(fileClaims, n);
            System.out.printf(Locale.ROOT, "%-8d %14.0f %20.0f %25.0f %14.0f%n", n, pgRate, pgCapped, pgBoth, fileRate);
        }
        summary(pg, rows, fileRows);
        System.exit(0);
    }

    private static List<RunSpec> specs(int n) {
        List<RunSpec> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(RunSpec.builder(i % 2 == 0 ? "fake" : "fake-2", "scripted").model("m").prompt("p" + i)
                    .baseline(Path.of("/tmp/none")).task("t" + i).build());
        }
        return out;
    }

    /** Claims per second with {@code n} workers, each with its own connection, until the queue is empty. */
    private static double pgClaims(PgServer pg, int claims, int n, int capped) throws Exception {
        String url = pg.newDatabase();
        try (PgDatabase setup = pg.database(url)) {
            setup.migrate();
            PgQueue q = new PgQueue(setup);
            q.enqueue("bench", specs(claims), RetryPolicy.DEFAULT);
            // a cap that never binds still makes every claim of its harness take the cap's lock: the worst case
            if (capped >= 1) {
                q.cap(PgQueue.CapKind.HARNESS, "fake", 1_000_000);
            }
            if (capped >= 2) {
                q.cap(PgQueue.CapKind.HARNESS, "fake-2", 1_000_000);
            }
        }
        HarnessResult done = HarnessResult.builder(Outcome.COMPLETED, "m").build();
        AtomicInteger total = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(n);
        List<PgDatabase> dbs = new ArrayList<>();
        long t0 = System.nanoTime();
        try {
            List<Future<?>> fs = new ArrayList<>();
            for (int w = 0; w < n; w++) {
                PgDatabase db = PgDatabase.builder(url).user(PgServer.USER).password(pg.password().toCharArray())
                        .poolSize(1).build();
                dbs.add(db);
                PgQueue q = new PgQueue(db);
                String name = "w" + w;
                fs.add(pool.submit(() -> {
                    Optional<PgLease> l;
                    while ((l = q.claim(name, Duration.ofMinutes(5))).isPresent()) {
                        q.finish(l.get(), done, RetryPolicy.DEFAULT, null);
                        total.incrementAndGet();
                    }
                    return null;
                }));
            }
            for (Future<?> f : fs) {
                f.get(30, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
            dbs.forEach(PgDatabase::close);
        }
        double s = (System.nanoTime() - t0) / 1e9;
        if (total.get() != claims) {
            throw new IllegalStateException("claimed " + total.get() + " of " + claims);
        }
        return claims / s;
    }

    /** The same on the embedded file store: {@code n} threads list the active entries and claim. */
    private static double fileClaims(int claims, int n) throws Exception {
        Path state = Files.createTempDirectory("harness4j-pgbench-file-");
        try {
            RunQueue queue = RunQueue.builder().stateDir(state).build();
            queue.enqueue(specs(claims));
            HarnessResult done = HarnessResult.builder(Outcome.COMPLETED, "m").build();
            AtomicInteger total = new AtomicInteger();
            ExecutorService pool = Executors.newFixedThreadPool(n);
            long t0 = System.nanoTime();
            try {
                List<Future<?>> fs = new ArrayList<>();
                for (int w = 0; w < n; w++) {
                    int offset = w;
                    fs.add(pool.submit(() -> {
                        while (true) {
                            List<QueueEntry> queued = queue.store().listActive().stream()
                                    .filter(e -> e.state() == QueueEntry.State.QUEUED).toList();
                            if (queued.isEmpty()) {
                                return null;
                            }
                            // spread the threads over the list as processors on several machines would collide
                            QueueEntry e = queued.get(Math.min(offset, queued.size() - 1));
                            Optional<QueueEntry> mine = queue.claim(e.id());
                            if (mine.isPresent()) {
                                queue.finish(mine.get(), done);
                                total.incrementAndGet();
                            }
                        }
                    }));
                }
                for (Future<?> f : fs) {
                    f.get(30, TimeUnit.MINUTES);
                }
            } finally {
                pool.shutdownNow();
            }
            double s = (System.nanoTime() - t0) / 1e9;
            return total.get() / s;
        } finally {
            deleteTree(state);
        }
    }

    private static void summary(PgServer pg, int rows, int fileRows) throws Exception {
        // one trial per task x combo (every run its own cell: the worst case for aggregating), then five
        summaryOf(pg, rows, 30, "1 trial per cell");
        summaryOf(pg, rows, 150, "5 trials per cell");
        fileSummary(fileRows);
    }

    private static void summaryOf(PgServer pg, int rows, int perTask, String shape) throws Exception {
        String url = pg.newDatabase();
        try (PgDatabase db = pg.database(url)) {
            db.migrate();
            long t0 = System.nanoTime();
            try (var c = db.connect(); Statement s = c.createStatement()) {
                // rows generated in the server: a bench of 3 harnesses x 10 models x rows/perTask tasks
                s.execute("INSERT INTO h4j_result (run_id, entry_id, bench, worker, dir, meta, harness, provider, model,"
                        + " task, outcome, reason, trial, duration_ms, files_changed, insertions, deletions, tokens_in,"
                        + " tokens_out, token_source, cost_usd, cost_source, served_verdict, verify_status, reward)"
                        + " SELECT 'r-' || i, 'q-' || i, 'big', 'w' || (i % 16), 'big-t' || (i / " + perTask + ") || '/h' || (i % 3)"
                        + " || '__scripted__m' || (i % 10) || '/r-' || i, jsonb_build_object('schema_version', 1,"
                        + " 'harness', 'h' || (i % 3), 'outcome', CASE WHEN i % 7 = 0 THEN 'error' ELSE 'completed' END),"
                        + " 'h' || (i % 3), 'scripted', 'm' || (i % 10), 'big/t' || (i / " + perTask + "), CASE WHEN i % 7 = 0"
                        + " THEN 'error' ELSE 'completed' END, NULL, 1 + (i % 3), 1000 + i % 5000, 1, 10, 2, 1000 + i % 900,"
                        + " 200, 'meter', (i % 100) / 1000.0, 'meter', 'match', CASE WHEN i % 4 = 0 THEN 'failed'"
                        + " ELSE 'passed' END, CASE WHEN i % 4 = 0 THEN 0.0 ELSE 1.0 END"
                        + " FROM generate_series(1, " + rows + ") i");
                s.execute("VACUUM ANALYZE h4j_result");
            }
            System.out.printf(Locale.ROOT, "%nsummary: %d result rows inserted in %.1f s%n", rows,
                    (System.nanoTime() - t0) / 1e9);
            PgResults results = new PgResults(db);
            // interleaved, so every path sees the same load of this shared machine
            long[] rowsMs = new long[7];
            long[] loadMs = new long[7];
            long[] beforeMs = new long[7];
            long[] aggMs = new long[7];
            int got = 0;
            int combos = 0;
            for (int i = 0; i < rowsMs.length; i++) {
                long t = System.nanoTime();
                BenchSummary s = results.summary(null);
                loadMs[i] = (System.nanoTime() - t) / 1_000_000;
                BenchMetrics m = BenchMetrics.of(s);
                SummaryFormat.leaderboard(m);
                SummaryFormat.taskGrid(m);
                rowsMs[i] = (System.nanoTime() - t) / 1_000_000;
                got = s.rows().size();
                s = null;
                m = null;
                t = System.nanoTime();
                BenchMetrics b = before(db);
                SummaryFormat.leaderboard(b);
                SummaryFormat.taskGrid(b);
                beforeMs[i] = (System.nanoTime() - t) / 1_000_000;
                b = null;
                t = System.nanoTime();
                BenchMetrics a = results.metrics(null); // what bench summary --db prints, from the aggregates alone
                SummaryFormat.leaderboard(a);
                SummaryFormat.taskGrid(a);
                aggMs[i] = (System.nanoTime() - t) / 1_000_000;
                combos = a.leaderboard().size();
            }
            Arrays.sort(rowsMs);
            Arrays.sort(loadMs);
            Arrays.sort(beforeMs);
            Arrays.sort(aggMs);
            System.out.printf(Locale.ROOT, "%s, %d rows, %d combos, %d cells; leaderboard + task grid; load average %s%n",
                    shape, got, combos, got * 30 / perTask, loadAverage());
            System.out.printf(Locale.ROOT, "  every row loaded + BenchMetrics: median %d ms (min %d, max %d; loading the rows"
                    + " %d ms)%n", rowsMs[3], rowsMs[0], rowsMs[6], loadMs[3]);
            System.out.printf(Locale.ROOT, "  narrow columns, summing before (b3f9ce9): median %d ms (min %d, max %d)%n",
                    beforeMs[3], beforeMs[0], beforeMs[6]);
            System.out.printf(Locale.ROOT, "  narrow columns summed per combo and task (PgResults.metrics): median %d ms (min %d, max %d; target"
                    + " <= 1000)%n", aggMs[3], aggMs[0], aggMs[6]);
        }
    }

    /** The figures as {@code PgResults.metrics} summed them before (same transaction settings). */
    private static BenchMetrics before(PgDatabase db) throws Exception {
        try (var c = db.connect()) {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY");
            }
            BenchMetrics m = MetricsQueryBefore.metrics(c, null);
            c.commit();
            return m;
        }
    }

    private static void fileSummary(int fileRows) throws Exception {
        if (fileRows == 0) {
            return; // the file side skipped: writing 100,000 meta.json files takes minutes
        }
        Path state = Files.createTempDirectory("harness4j-pgbench-files-");
        try {
            for (int i = 1; i <= fileRows; i++) {
                Path d = Files.createDirectories(state.resolve("results").resolve("big-t" + (i / 30))
                        .resolve("h" + (i % 3) + "__scripted__m" + (i % 10)).resolve("r-" + i));
                Files.writeString(d.resolve("meta.json"), String.format(Locale.ROOT, "{\"schema_version\":1,"
                        + "\"harness\":\"h%d\",\"provider\":\"scripted\",\"model\":\"m%d\",\"task\":\"big/t%d\",\"trial\":%d,"
                        + "\"outcome\":\"%s\",\"duration_ms\":%d,\"changes\":{\"files_changed\":1,\"insertions\":10,"
                        + "\"deletions\":2},\"tokens\":{\"input\":%d,\"output\":200,\"source\":\"meter\"},\"cost\":{\"usd\":%.3f,"
                        + "\"source\":\"meter\"},\"served_model\":{\"verdict\":\"match\"},\"verify\":{\"status\":\"%s\"}}",
                        i % 3, i % 10, i / 30, 1 + i % 3, i % 7 == 0 ? "error" : "completed", 1000 + i % 5000,
                        1000 + i % 900, (i % 100) / 1000.0, i % 4 == 0 ? "failed" : "passed"), StandardCharsets.UTF_8);
            }
            long[] fileMs = new long[3];
            long[] loadMs = new long[3];
            int got = 0;
            for (int i = 0; i < fileMs.length; i++) {
                long t = System.nanoTime();
                BenchSummary s = BenchSummary.read(state);
                loadMs[i] = (System.nanoTime() - t) / 1_000_000;
                BenchMetrics.of(s);
                fileMs[i] = (System.nanoTime() - t) / 1_000_000;
                got = s.rows().size();
            }
            Arrays.sort(fileMs);
            Arrays.sort(loadMs);
            System.out.printf(Locale.ROOT, "file summary + metrics over %d meta.json files: median %d ms (min %d, max %d);"
                    + " of which reading the files: median %d ms%n", got, fileMs[1], fileMs[0], fileMs[2], loadMs[1]);
        } finally {
            deleteTree(state);
        }
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (Exception e) {
            return "unknown";
        }
    }

    private static void deleteTree(Path dir) throws Exception {
        try (Stream<Path> all = Files.walk(dir)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
