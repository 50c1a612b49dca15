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
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bench compare|report|summary --db} from the database alone, and {@code --force} with {@code --db}. */
class DbReportsTest {
    private final PgServer pg = PgServer.shared();
    @TempDir Path tmp;
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        return Harness4j.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    }

    private String[] db(String url) throws Exception {
        Path f = tmp.resolve("db-password");
        Files.writeString(f, pg.password() + "\n");
        return new String[] {"--db", url, "--db-user", PgServer.USER, "--db-password-file", f.toString()};
    }

    private static String[] concat(String[] a, String[] b) {
        return Stream.concat(Stream.of(a), Stream.of(b)).toArray(String[]::new);
    }

    /** One result of {@code bench} for task t1, written through the queue by "another machine". */
    private void result(PgDatabase db, String bench, String verify, String diff) throws Exception {
        Path results = tmp.resolve("worker-" + bench + "/results");
        Path dir = Files.createDirectories(results.resolve(bench + "-t1/claude-code__scripted__scripted-a/r-1"));
        Files.writeString(dir.resolve("meta.json"), "{\"schema_version\":1,\"harness\":\"claude-code\","
                + "\"provider\":\"scripted\",\"model\":\"scripted-a\",\"task\":\"" + bench + "/t1\",\"trial\":1,"
                + "\"outcome\":\"completed\",\"duration_ms\":1200,\"verify\":{\"status\":\"" + verify + "\"}}");
        Files.writeString(dir.resolve("diff.patch"), diff);
        Files.writeString(dir.resolve("transcript.log"), "the transcript of " + bench + "\n");
        PgQueue queue = new PgQueue(db);
        queue.enqueue(bench, List.of(RunSpec.builder("claude-code", "scripted").model("scripted-a").prompt("p")
                .baseline(tmp).task(bench + "/t1").build()), RetryPolicy.DEFAULT);
        var lease = queue.claim("elsewhere", Duration.ofMinutes(5)).orElseThrow();
        queue.finish(lease, HarnessResult.builder(Outcome.COMPLETED, "scripted-a").build(), RetryPolicy.DEFAULT,
                PgResults.upload(results, dir, ArtifactCaps.DEFAULT, "elsewhere"));
    }

    @Test
    void compareReportAndLeaderboardWithDbReadTheDatabaseAlone() throws Exception {
        String url = pg.newDatabase();
        try (PgDatabase db = pg.database(url)) {
            db.migrate();
            result(db, "before", "passed", "+hello before\n");
            result(db, "after", "failed", "+hello after\n");
        }
        Path empty = tmp.resolve("empty-state"); // another machine: no result on disk
        String[] where = db(url);

        assertThat(run(concat(new String[] {"bench", "compare", "--state-dir", empty.toString(), "--bench", "after",
            "--baseline", "before"}, where))).as(err.toString()).isZero();
        assertThat(out.toString()).contains("newly failing: 1", "t1  claude-code / scripted-a  pass -> fail", "-100 pts").doesNotContain(pg.password());

        out.getBuffer().setLength(0);
        assertThat(run(concat(new String[] {"bench", "summary", "--state-dir", empty.toString(), "--bench", "after"},
                where))).as(err.toString()).isZero();
        assertThat(out.toString()).contains("claude-code", "scripted-a", "0/1", "failed 1", "after/t1");

        Path report = tmp.resolve("report");
        out.getBuffer().setLength(0);
        assertThat(run(concat(new String[] {"bench", "report", "--state-dir", empty.toString(), "--bench", "after",
            "--baseline", "before", "--out", report.toString()}, where))).as(err.toString()).isZero();
        assertThat(out.toString()).contains("report: ", "1 results from " + url);
        String page;
        try (Stream<Path> runs = Files.list(report.resolve("runs"))) {
            page = Files.readString(runs.findFirst().orElseThrow());
        }
        assertThat(page).contains("+hello after", "the transcript of after");
        assertThat(Files.readString(report.resolve("index.html"))).contains("claude-code");
        try (Stream<Path> left = Files.list(report)) { // the scratch result dirs are gone
            assertThat(left.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith(".results-"));
        }
        assertThat(empty).doesNotExist();

        out.getBuffer().setLength(0);
        assertThat(run(concat(new String[] {"bench", "compare", "--state-dir", empty.toString(), "--bench", "nothing",
            "--baseline", "before"}, where))).isEqualTo(Harness4j.BAD_INPUT);
        assertThat(err.toString()).contains("no results for bench 'nothing'");
    }

    @Test
    void forceWithDbIsRefusedAndQueuesNothing() throws Exception {
        String url = pg.newDatabase();
        Path task = Files.createDirectories(tmp.resolve("suite/greet"));
        Files.writeString(task.resolve("task.json"), "{\"instruction\": \"Create greeting.txt\","
                + " \"verify\": {\"command\": \"test -f greeting.txt\"}}");
        Path state = tmp.resolve("state");
        ProvidersFile.write(ProvidersFile.in(state),
                List.of(ProviderConfig.scripted(URI.create("http://127.0.0.1:9"), "scripted-a")));
        String[] plan = {"bench", "run", "--state-dir", state.toString(), "--suite", tmp.resolve("suite").toString(),
            "--harness", "claude-code", "--provider", "scripted", "--model", "scripted-a", "--force"};
        assertThat(run(concat(plan, db(url)))).isEqualTo(Harness4j.BAD_INPUT);
        assertThat(err.toString()).contains("--force cannot be used with --db", "new id (--id)")
                .doesNotContain(pg.password());
        try (PgDatabase db = pg.database(url)) {
            db.migrate();
            assertThat(new PgQueue(db).counts("suite").queued()).isZero();
        }
    }
}
