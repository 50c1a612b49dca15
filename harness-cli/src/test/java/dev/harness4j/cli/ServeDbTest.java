package dev.harness4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.RunSpec;
import dev.harness4j.core.queue.RetryPolicy;
import dev.harness4j.postgres.ArtifactCaps;
import dev.harness4j.postgres.PgDatabase;
import dev.harness4j.postgres.PgLease;
import dev.harness4j.postgres.PgQueue;
import dev.harness4j.postgres.PgResults;
import dev.harness4j.postgres.PgServer;
import dev.harness4j.testkit.browser.ChildJvm;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code harness4j serve --db}: the live view of what the workers of a shared PostgreSQL queue
 * recorded, on a machine that runs none of it — the bench with its running run (and the worker
 * running it) and its finished one, the finished run's page from the stored artifacts, the bench's
 * event stream telling of a result recorded meanwhile, the bail buttons off (409, with why), and
 * the command's own {@code --db} options in a child JVM.
 */
class ServeDbTest {
    private final PgServer pg = PgServer.shared();
    private final HttpClient http = HttpClient.newHttpClient();
    @TempDir Path tmp;

    /** Queues a run of {@code task} in bench "live" and claims it as worker {@code worker}. */
    private static PgLease claimed(PgQueue queue, String task, String worker, Path baseline) {
        queue.enqueue("live", List.of(RunSpec.builder("claude-code", "scripted").model("scripted-a").prompt("p")
                .baseline(baseline).task("live/" + task).build()), RetryPolicy.DEFAULT);
        return queue.claim(worker, Duration.ofMinutes(5)).orElseThrow();
    }

    /** The worker's result of a claimed run: a result dir named by its run id, then the finish. */
    private void finish(PgQueue queue, PgLease lease, String diff) throws Exception {
        Path results = tmp.resolve("worker/results");
        Path dir = Files.createDirectories(results.resolve(lease.spec().task().replace('/', '-'))
                .resolve("claude-code__scripted__scripted-a").resolve(lease.runId()));
        Files.writeString(dir.resolve("meta.json"), "{\"schema_version\":1,\"harness\":\"claude-code\",\"provider\":"
                + "\"scripted\",\"model\":\"scripted-a\",\"task\":\"" + lease.spec().task() + "\",\"trial\":1,"
                + "\"outcome\":\"completed\",\"duration_ms\":1200,\"verify\":{\"status\":\"passed\"}}");
        Files.writeString(dir.resolve("diff.patch"), diff);
        Files.writeString(dir.resolve("transcript.log"), "the transcript of " + lease.runId() + "\n");
        queue.finish(lease, HarnessResult.builder(Outcome.COMPLETED, "scripted-a").build(), RetryPolicy.DEFAULT,
                PgResults.upload(results, dir, ArtifactCaps.DEFAULT, "elsewhere"));
    }

    private String get(URI url) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(url).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(url + ": " + r.body()).isEqualTo(200);
        return r.body();
    }

    @Test
    void theViewReadsWhatTheWorkersRecordedLive() throws Exception {
        String url = pg.newDatabase();
        PgDatabase db = pg.database(url);
        db.migrate();
        PgQueue queue = new PgQueue(db);
        PgLease done = claimed(queue, "t1", "worker-a", tmp);
        finish(queue, done, "+hello from t1\n");
        PgLease running = claimed(queue, "t2", "worker-b", tmp);

        try (LiveServer server = new LiveServer(new LiveDatabase(pg.database(url)),
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            URI base = server.url();
            String token = base.getQuery().substring(2);
            URI root = base.resolve("/");
            assertThat(get(base)).contains("database: " + url, "/bench/live").doesNotContain(pg.password());
            String bench = get(root.resolve("/bench/live?t=" + token));
            assertThat(bench).contains(running.runId(), "on worker-b", done.runId(), "completed", "claude-code")
                    .contains("does not reach its workers").doesNotContain("id=\"bail-bench\"")
                    .doesNotContain("static report");
            assertThat(get(root.resolve("/run/" + done.runId() + "?t=" + token)))
                    .contains("+hello from t1", "the transcript of " + done.runId(), "Timeline");
            assertThat(get(root.resolve("/run/" + running.runId() + "?t=" + token)))
                    .contains("running on worker-b", "this page shows its result once the worker records it").doesNotContain("id=\"bail-run\"");
            HttpResponse<String> bail = http.send(HttpRequest.newBuilder(root.resolve("/bail/run/" + running.runId()))
                    .header("X-Harness4j-Token", token).POST(HttpRequest.BodyPublishers.noBody()).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(bail.statusCode()).isEqualTo(409);
            assertThat(bail.body()).contains("bail from the worker's machine");

            // a result recorded meanwhile: the bench's stream says so, the fragment shows it
            HttpResponse<InputStream> events = http.send(HttpRequest.newBuilder(root.resolve("/events/bench/live?t="
                    + token)).build(), HttpResponse.BodyHandlers.ofInputStream());
            CompletableFuture<String> change = CompletableFuture.supplyAsync(() -> firstEvent(events.body()));
            Thread.sleep(LiveServer.POLL.toMillis() * 2);
            finish(queue, running, "+hello from t2\n");
            assertThat(change.get(30, TimeUnit.SECONDS)).isEqualTo("event: change");
            events.body().close();
            assertThat(get(root.resolve("/bench/live/live?t=" + token))).contains("running 0", "results 2")
                    .contains("live/t2");
            assertThat(get(root.resolve("/run/" + running.runId() + "?t=" + token))).contains("+hello from t2");
            assertThat(get(root.resolve("/compare?bench=live&baseline=live&t=" + token))).contains("compared with");
        } finally {
            db.close();
        }
    }

    private static String firstEvent(InputStream in) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                if (line.startsWith("event: ")) {
                    return line;
                }
            }
            return "the stream ended";
        } catch (java.io.IOException e) {
            return "the stream failed: " + e;
        }
    }

    @Test
    void theCommandTakesTheDatabaseOptionsAndDeletesItsScratchFiles() throws Exception {
        String url = pg.newDatabase();
        Path password = tmp.resolve("db-password");
        Files.writeString(password, pg.password() + "\n");
        Path scratch = Files.createDirectories(tmp.resolve("java-tmp"));
        try (ChildJvm serve = ChildJvm.start(tmp, Harness4j.class.getName(), List.of("-Djava.io.tmpdir=" + scratch),
                List.of("serve", "--db", url, "--db-user", PgServer.USER, "--db-password-file", password.toString()),
                "watch it live: ")) {
            URI base = URI.create(serve.rest());
            assertThat(get(base)).contains("database: " + url);
            try (var left = Files.list(scratch)) {
                assertThat(left.map(p -> p.getFileName().toString())).anyMatch(n -> n.startsWith("harness4j-serve-"));
            }
        }
        try (var left = Files.list(scratch)) {
            assertThat(left.map(p -> p.getFileName().toString())).as("the scratch dir is gone with the process")
                    .noneMatch(n -> n.startsWith("harness4j-serve-"));
        }
    }
}
