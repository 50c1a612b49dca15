package dev.harness4j.postgres;

import static dev.harness4j.postgres.PgTesting.scalar;
import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.RunSpec;
import dev.harness4j.core.queue.RetryPolicy;
import dev.harness4j.testkit.GitRepos;
import dev.harness4j.testkit.bench.ScriptedProvider;
import dev.harness4j.testkit.fake.FakeHarness;
import dev.harness4j.testkit.fake.FakeScript;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Worker JVMs with separate state dirs, as if on separate machines, sharing one database:
 * exactly-once under a kill -9, caps from the database's own timestamps, and fencing of a worker
 * frozen past its lease. Leases are short (seconds) and waits generous (minutes).
 */
class PgWorkersTest {
    private static final long LEASE_MS = 4_000;
    private static final long HEARTBEAT_MS = 500;
    private final PgServer pg = PgServer.shared();
    @TempDir Path tmp;

    private static RunSpec fakeRun(String harness, Path repo, int i, Duration silence) {
        return FakeScript.builder().print("run " + i).silence(silence).writeFile("out.txt", "run " + i + "\n").build()
                .applyTo(RunSpec.builder(harness, ScriptedProvider.NAME)).model("m").prompt("run " + i)
                .baseline(repo).task("pg/t" + i).build();
    }

    private static String reasons(PgDatabase db) {
        return db.withConnection(c -> {
            StringBuilder sb = new StringBuilder();
            try (var s = c.createStatement(); var r = s.executeQuery(
                    "SELECT state, last_outcome, reason FROM h4j_queue WHERE state <> 'done' LIMIT 5")) {
                while (r.next()) {
                    sb.append(r.getString(1)).append(' ').append(r.getString(2)).append(' ').append(r.getString(3)).append('\n');
                }
            }
            return sb.toString();
        }, "test");
    }

    @Test
    void fourWorkersRunTwoHundredRunsEachExactlyOnceThoughOneIsKilledAndACapOfTwoHolds() throws Exception {
        Path repo = GitRepos.withReadme(tmp.resolve("repo"));
        String url = pg.newDatabase();
        try (PgDatabase db = pg.database(url); WorkerJvms jvms = new WorkerJvms()) {
            db.migrate();
            PgQueue queue = new PgQueue(db);
            List<RunSpec> specs = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                specs.add(fakeRun(i % 5 == 0 ? TestWorkerMain.CAPPED : FakeHarness.ID, repo, i, Duration.ofMillis(300)));
            }
            queue.cap(PgQueue.CapKind.HARNESS, TestWorkerMain.CAPPED, 2);
            assertThat(queue.enqueue("pg-bench", specs, RetryPolicy.DEFAULT)).hasSize(200);

            List<WorkerJvms.Worker> workers = new ArrayList<>();
            for (int w = 0; w < 4; w++) {
                workers.add(jvms.start(pg, url, tmp.resolve("state-" + w), "w" + w, LEASE_MS, HEARTBEAT_MS, 2));
            }
            WorkerJvms.Worker victim = workers.get(0);
            PgTesting.await("worker w0 to be running an entry after some runs are done", Duration.ofMinutes(5),
                    () -> scalar(db, "SELECT count(*) FROM h4j_queue WHERE state = 'running' AND worker = 'w0'") > 0
                            && scalar(db, "SELECT count(*) FROM h4j_queue WHERE state = 'done'") >= 10);
            victim.signal("KILL");
            victim.awaitExit(60);
            long orphaned = scalar(db, "SELECT count(*) FROM h4j_attempt WHERE worker = 'w0' AND ended_at IS NULL");

            for (WorkerJvms.Worker w : workers.subList(1, 4)) {
                assertThat(w.awaitExit(900)).as(w.output()).isZero();
                assertThat(w.summary()).as(w.output()).isPresent();
            }

            assertThat(queue.counts("pg-bench")).isEqualTo(new PgQueue.Counts(0, 0, 200, 0, 0));
            assertThat(scalar(db, "SELECT count(*) FROM h4j_result")).isEqualTo(200);
            assertThat(scalar(db, "SELECT count(DISTINCT entry_id) FROM h4j_result")).isEqualTo(200);
            assertThat(scalar(db, "SELECT count(*) FROM h4j_result WHERE outcome = 'completed'")).isEqualTo(200);
            // each entry completed by exactly one attempt
            assertThat(scalar(db, "SELECT count(*) FROM (SELECT entry_id FROM h4j_attempt WHERE outcome = 'completed'"
                    + " GROUP BY entry_id HAVING count(*) <> 1) x")).isZero();
            // the killed worker's entries: their lease expired, another worker took them over and did them once
            assertThat(orphaned).isPositive();
            assertThat(scalar(db, "SELECT count(*) FROM h4j_attempt WHERE worker = 'w0' AND outcome = '"
                    + PgQueue.LEASE_EXPIRED + "'")).isEqualTo(orphaned);
            assertThat(scalar(db, "SELECT count(*) FROM h4j_attempt a JOIN h4j_attempt b ON a.entry_id = b.entry_id"
                    + " WHERE a.worker = 'w0' AND a.outcome = 'lease-expired' AND b.worker <> 'w0'"
                    + " AND b.outcome = 'completed' AND b.attempt = a.attempt + 1")).isEqualTo(orphaned);
            assertThat(scalar(db, "SELECT count(*) FROM h4j_result WHERE worker = 'w0' AND run_id IN"
                    + " (SELECT run_id FROM h4j_attempt WHERE outcome = 'lease-expired')")).isZero();
            // the cap, from the database's own timestamps: never more than 2 capped runs at once
            long maxCapped = scalar(db, "SELECT max(n) FROM (SELECT (SELECT count(*) FROM h4j_attempt b"
                    + " WHERE b.harness = a.harness AND b.started_at <= a.started_at"
                    + " AND coalesce(b.ended_at, 'infinity') > a.started_at) AS n FROM h4j_attempt a"
                    + " WHERE a.harness = '" + TestWorkerMain.CAPPED + "') x");
            assertThat(maxCapped).isBetween(1L, 2L);
            System.out.println("[PgWorkersTest] killed w0 with " + orphaned + " runs in flight; most capped runs at once: "
                    + maxCapped + "; most runs at once: " + scalar(db, "SELECT max(n) FROM (SELECT (SELECT count(*)"
                    + " FROM h4j_attempt b WHERE b.started_at <= a.started_at AND coalesce(b.ended_at, 'infinity')"
                    + " > a.started_at) AS n FROM h4j_attempt a) x"));
        }
    }

    @Test
    void aWorkerFrozenPastItsLeaseAndThenResumedWritesNoResultForTheEntryItLost() throws Exception {
        Path repo = GitRepos.withReadme(tmp.resolve("repo"));
        String url = pg.newDatabase();
        try (PgDatabase db = pg.database(url); WorkerJvms jvms = new WorkerJvms()) {
            db.migrate();
            PgQueue queue = new PgQueue(db);
            queue.enqueue("frozen-bench", List.of(fakeRun(FakeHarness.ID, repo, 1, Duration.ofSeconds(2))),
                    RetryPolicy.DEFAULT);
            WorkerJvms.Worker frozen = jvms.start(pg, url, tmp.resolve("state-frozen"), "frozen", 2_000, 300, 1);
            PgTesting.await("the worker to claim the entry", Duration.ofMinutes(5),
                    () -> scalar(db, "SELECT count(*) FROM h4j_queue WHERE state = 'running' AND worker = 'frozen'") == 1);
            frozen.signal("STOP");
            WorkerJvms.Worker rescuer = jvms.start(pg, url, tmp.resolve("state-rescuer"), "rescuer", 20_000, 1_000, 1);
            assertThat(rescuer.awaitExit(600)).as(rescuer.output()).isZero();
            assertThat(queue.counts("frozen-bench").done()).as(frozen.output() + rescuer.output() + reasons(db)).isEqualTo(1);
            frozen.signal("CONT");
            assertThat(frozen.awaitExit(600)).as(frozen.output()).isZero();

            String lostRun = db.withConnection(c -> {
                try (var s = c.createStatement(); var r = s.executeQuery(
                        "SELECT run_id FROM h4j_attempt WHERE worker = 'frozen'")) {
                    r.next();
                    return r.getString(1);
                }
            }, "test");
            assertThat(frozen.summary().orElseThrow()).contains("leaseLost=" + lostRun).contains("recorded=0");
            assertThat(scalar(db, "SELECT count(*) FROM h4j_result")).isEqualTo(1);
            assertThat(scalar(db, "SELECT count(*) FROM h4j_result WHERE worker = 'rescuer'")).isEqualTo(1);
            assertThat(scalar(db, "SELECT attempts FROM h4j_queue")).isEqualTo(2);
            assertThat(frozen.output()).contains("was taken over");
        }
    }
}
