package dev.harness4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.RunSpec;
import dev.harness4j.core.provider.ProviderConfig;
import dev.harness4j.core.provider.ProvidersFile;
import dev.harness4j.core.queue.RetryPolicy;
import dev.harness4j.postgres.ArtifactCaps;
import dev.harness4j.postgres.PgDatabase;
import dev.harness4j.postgres.PgQueue;
import dev.harness4j.postgres.PgResults;
import dev.harness4j.postgres.PgServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code harness4j worker --db} and {@code bench run --db} against a real PostgreSQL. */
class WorkerCommandTest {
    private final PgServer pg = PgServer.shared();
    @TempDir Path tmp;
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        return Harness4j.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    }

    private Path passwordFile() throws Exception {
        Path f = tmp.resolve("db-password");
        Files.writeString(f, pg.password() + "\n");
        return f;
    }

    @Test
    void anUnreachableDatabaseIsBadInputNamingTheUrlWithoutTheUser() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path pw = tmp.resolve("pw");
        Files.writeString(pw, "very-secret-pw\n");
        String url = "jdbc:postgresql://127.0.0.1:" + port + "/bench";
        int code = run("worker", "--db", url, "--db-user", "h4j", "--db-password-file", pw.toString(),
                "--state-dir", tmp.resolve("state").toString(), "--exit-when-idle");
        assertThat(code).isEqualTo(Harness4j.BAD_INPUT);
        assertThat(err.toString()).contains("cannot", url, "HARNESS4J_DB_PASSWORD").doesNotContain("very-secret-pw");
        assertThat(tmp.resolve("state/runs")).doesNotExist();
    }

    @Test
    void aPasswordInTheUrlIsRefusedWithoutEchoingIt() {
        int code = run("worker", "--db", "jdbc:postgresql://db:5432/b?password=hunter2", "--exit-when-idle");
        assertThat(code).isEqualTo(Harness4j.BAD_INPUT);
        assertThat(err.toString()).contains("carries a password").doesNotContain("hunter2");
    }

    @Test
    void aWorkerRefusesASchemaFromANewerVersion() throws Exception {
        String url = pg.newDatabase();
        try (PgDatabase db = pg.database(url)) {
            db.migrate();
        }
        try (var c = pg.connect(url.substring(url.lastIndexOf('/') + 1)); Statement s = c.createStatement()) {
            s.executeUpdate("INSERT INTO h4j_schema_version (version, description) VALUES (1000, 'from the future')");
        }
        int code = run("worker", "--db", url, "--db-user", PgServer.USER, "--db-password-file",
                passwordFile().toString(), "--state-dir", tmp.resolve("state").toString(), "--exit-when-idle");
        assertThat(code).isEqualTo(Harness4j.BAD_INPUT);
        assertThat(err.toString()).contains("schema version 1000", "Upgrade harness4j");
    }

    @Test
    void benchRunWithDbQueuesThePlanOnceAndAnIdleWorkerExits() throws Exception {
        String url = pg.newDatabase();
        Path task = Files.createDirectories(tmp.resolve("suite/greet"));
        Files.writeString(task.resolve("task.json"), "{\"instruction\": \"Create greeting.txt\","
                + " \"setup\": \"echo base > base.txt\", \"verify\": {\"command\": \"test -f greeting.txt\"}}");
        Path state = tmp.resolve("state");
        ProvidersFile.write(ProvidersFile.in(state),
                List.of(ProviderConfig.scripted(URI.create("http://127.0.0.1:9"), "scripted-a")));
        String[] plan = {"bench", "run", "--state-dir", state.toString(), "--suite", tmp.resolve("suite").toString(),
            "--harness", "claude-code", "--provider", "scripted", "--model", "scripted-a", "--trials", "3",
            "--db", url, "--db-user", PgServer.USER, "--db-password-file", passwordFile().toString()};
        assertThat(run(plan)).as(err.toString()).isZero();
        assertThat(out.toString()).contains("3 of 3 runs queued").doesNotContain(pg.password());
        assertThat(run(plan)).as(err.toString()).isZero();
        assertThat(out.toString()).contains("0 of 3 runs queued (3 were queued before)");
        try (PgDatabase db = pg.database(url)) {
            PgQueue.Counts n = new PgQueue(db).counts("suite");
            assertThat(n.queued()).isEqualTo(3);
        }
    }

    @Test
    void benchSummaryWithDbPrintsTheLeaderboardFromTheDatabaseAlone() throws Exception {
        String url = pg.newDatabase();
        Path results = tmp.resolve("worker-state/results");
        Path dir = Files.createDirectories(results.resolve("db-bench-t1/claude-code__scripted__scripted-a/r-1"));
        Files.writeString(dir.resolve("meta.json"), "{\"schema_version\":1,\"harness\":\"claude-code\","
                + "\"provider\":\"scripted\",\"model\":\"scripted-a\",\"task\":\"db-bench/t1\",\"trial\":1,"
                + "\"outcome\":\"completed\",\"duration_ms\":1200,\"verify\":{\"status\":\"passed\",\"reward\":1.0}}");
        try (PgDatabase db = pg.database(url)) {
            db.migrate();
            PgQueue queue = new PgQueue(db);
            queue.enqueue("db-bench", List.of(RunSpec.builder("claude-code", "scripted")
                    .model("scripted-a").prompt("p").baseline(tmp).task("db-bench/t1").build()),
                    RetryPolicy.DEFAULT);
            var lease = queue.claim("elsewhere", Duration.ofMinutes(5)).orElseThrow();
            queue.finish(lease, HarnessResult.builder(Outcome.COMPLETED, "scripted-a")
                    .build(), RetryPolicy.DEFAULT, PgResults.upload(results,
                    dir, ArtifactCaps.DEFAULT, "elsewhere"));
        }
        // another machine: an empty state dir, only the database
        int code = run("bench", "summary", "--state-dir", tmp.resolve("empty-state").toString(), "--bench", "db-bench",
                "--db", url, "--db-user", PgServer.USER, "--db-password-file", passwordFile().toString(),
                "--format", "table");
        assertThat(code).as(err.toString()).isZero();
        assertThat(out.toString()).contains("claude-code", "scripted-a", "completed");
    }

    @Test
    void aWorkerOnAnEmptyQueueSetsItsCapsAndExitsWhenIdle() throws Exception {
        String url = pg.newDatabase();
        int code = run("worker", "--db", url, "--db-user", PgServer.USER, "--db-password-file",
                passwordFile().toString(), "--state-dir", tmp.resolve("state").toString(), "--exit-when-idle",
                "--name", "cli-worker", "--harness-cap", "claude-code=2", "--lease", "PT10S", "--heartbeat", "PT2S");
        assertThat(code).as(err.toString()).isZero();
        assertThat(out.toString()).contains("worker cli-worker on " + url, "claimed 0, recorded 0")
                .doesNotContain(pg.password());
        try (PgDatabase db = pg.database(url); var c = db.connect(); Statement s = c.createStatement();
                var r = s.executeQuery("SELECT cap FROM h4j_cap WHERE kind = 'harness' AND name = 'claude-code'")) {
            assertThat(r.next()).isTrue();
            assertThat(r.getInt(1)).isEqualTo(2);
        }
    }
}
