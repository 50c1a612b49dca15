package dev.harness4j.postgres;

import static dev.harness4j.postgres.PgTesting.scalar;
import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.RunSpec;
import dev.harness4j.core.process.RunMarker;
import dev.harness4j.core.queue.RetryPolicy;
import dev.harness4j.testkit.GitRepos;
import dev.harness4j.testkit.bench.ScriptedProvider;
import dev.harness4j.testkit.fake.FakeHarness;
import dev.harness4j.testkit.fake.FakeScript;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker killed with -9 leaves its run's processes, workspace and claim on the machine; a
 * worker started again on the same local state dir sweeps them (and ends the dead lease so the
 * entry is queued again at once), and leaves alone what a live worker sharing the state dir runs.
 * Real worker JVMs, the real fake harness through {@code HarnessRunner}, real PostgreSQL.
 */
class PgWorkerRestartTest {
    private final PgServer pg = PgServer.shared();
    @TempDir Path tmp;

    private static RunSpec longRun(Path repo, int i) {
        return FakeScript.builder().print("run " + i).silence(Duration.ofMinutes(10)).build()
                .applyTo(RunSpec.builder(FakeHarness.ID, ScriptedProvider.NAME)).model("m").prompt("run " + i)
                .baseline(repo).task("restart/t" + i).build();
    }

    private static String runOf(PgDatabase db, String worker) {
        return db.withConnection(c -> {
            try (var p = c.prepareStatement("SELECT run_id FROM h4j_queue WHERE state = 'running' AND worker = ?")) {
                p.setString(1, worker);
                try (var r = p.executeQuery()) {
                    return r.next() ? r.getString(1) : null;
                }
            }
        }, "test");
    }

    @Test
    void aRestartedWorkerSweepsWhatItsKilledPredecessorLeftAndNothingOfALiveWorker() throws Exception {
        Path repo = GitRepos.withReadme(tmp.resolve("repo"));
        Path state = tmp.resolve("state-shared"); // as one machine's state dir, shared by two workers
        String url = pg.newDatabase();
        List<String> runIds = new ArrayList<>();
        try (PgDatabase db = pg.database(url); WorkerJvms jvms = new WorkerJvms()) {
            db.migrate();
            PgQueue queue = new PgQueue(db);
            queue.enqueue("restart", List.of(longRun(repo, 1), longRun(repo, 2)), RetryPolicy.DEFAULT);
            try {
                // long leases: only the sweep can end the dead worker's lease within this test
                WorkerJvms.Worker live = jvms.start(pg, url, state, "live", 600_000, 1_000, 1);
                PgTesting.await("the live worker to run an entry", Duration.ofMinutes(5), () -> runOf(db, "live") != null);
                WorkerJvms.Worker doomed = jvms.start(pg, url, state, "doomed", 600_000, 1_000, 1);
                PgTesting.await("the doomed worker to run an entry", Duration.ofMinutes(5), () -> runOf(db, "doomed") != null);
                String liveRun = runOf(db, "live");
                String deadRun = runOf(db, "doomed");
                runIds.add(liveRun);
                runIds.add(deadRun);
                PgTesting.await("both fake harness processes to run", Duration.ofMinutes(5),
                        () -> !RunMarker.find(liveRun).isEmpty() && !RunMarker.find(deadRun).isEmpty());

                doomed.signal("KILL");
                doomed.awaitExit(60);
                Path claims = state.resolve("pg-worker").resolve("claims");
                assertThat(RunMarker.find(deadRun)).as("the killed worker's harness outlives it").isNotEmpty();
                assertThat(state.resolve("runs").resolve(deadRun)).isDirectory();
                assertThat(claims.resolve(deadRun + ".json")).isRegularFile();

                WorkerJvms.Worker restarted = jvms.start(pg, url, state, "restarted", 600_000, 1_000, 1);
                PgTesting.await("the restarted worker to sweep run " + deadRun, Duration.ofMinutes(5),
                        () -> restarted.output().contains("swept run " + deadRun));

                assertThat(RunMarker.find(deadRun)).as(restarted.output()).isEmpty();
                assertThat(state.resolve("runs").resolve(deadRun)).doesNotExist();
                assertThat(state.resolve("runs").resolve(deadRun + ".events.jsonl")).doesNotExist();
                assertThat(claims.resolve(deadRun + ".json")).doesNotExist();
                // the live worker's run goes on untouched
                assertThat(live.process().isAlive()).isTrue();
                assertThat(RunMarker.find(liveRun)).isNotEmpty();
                assertThat(state.resolve("runs").resolve(liveRun)).isDirectory();
                assertThat(claims.resolve(liveRun + ".json")).isRegularFile();
                assertThat(restarted.output()).doesNotContain("swept run " + liveRun);
                assertThat(runOf(db, "live")).isEqualTo(liveRun);
                // the dead lease ended at once: the entry was queued again and taken by the restarted worker
                PgTesting.await("the restarted worker to take the entry over", Duration.ofMinutes(5),
                        () -> runOf(db, "restarted") != null);
                runIds.add(runOf(db, "restarted"));
                assertThat(scalar(db, "SELECT count(*) FROM h4j_attempt WHERE run_id = '" + deadRun
                        + "' AND outcome = '" + PgQueue.LEASE_EXPIRED + "'")).isEqualTo(1);
                assertThat(scalar(db, "SELECT attempts FROM h4j_queue WHERE run_id = '" + runOf(db, "restarted") + "'"))
                        .isEqualTo(2);
                assertThat(restarted.output()).contains("its lease ended so the entry is queued again now");
            } finally {
                jvms.close();
                for (String id : runIds) {
                    RunMarker.killAll(id, RunMarker.KILL_TIMEOUT); // the harnesses the killed JVMs left
                }
            }
        }
    }
}
