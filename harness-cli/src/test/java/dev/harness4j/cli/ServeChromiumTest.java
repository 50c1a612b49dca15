package dev.harness4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.core.GitFixture;
import dev.harness4j.core.ResultIndex;
import dev.harness4j.core.StoredResult;
import dev.harness4j.core.provider.ProviderConfig;
import dev.harness4j.core.provider.ProvidersFile;
import dev.harness4j.testkit.browser.ChildJvm;
import dev.harness4j.testkit.browser.WebDriverSession;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code harness4j serve} in real headless Chromium: a bench of two tasks runs in this JVM (harness-jobs'
 * job-test harness, a shell script printing a line every half second until the test lets it
 * finish), {@code serve} runs in a child JVM on the same state dir. The bench page shows both runs
 * running, then one's completion without a reload; a run page shows output lines arriving; its
 * bail button ends the run {@code bailed}, leaving no process; the bench's bail button bails what
 * runs and starts nothing more; a request without the token gets 403. Screenshots of
 * the three pages are kept in {@code target/serve-screenshots/}.
 */
class ServeChromiumTest {
    private static final Path SHOTS = Path.of("target", "serve-screenshots");
    private static final String SCRIPT = "i=0; while [ ! -f release ]; do echo \"line $i\"; i=$((i+1)); sleep 0.5; done;"
            + " rm release; echo hi > greeting.txt";
    @TempDir Path tmp;
    private ChildJvm serve;

    @AfterEach
    void stopServe() {
        if (serve != null) {
            serve.close();
        }
    }

    @Test
    void theLiveViewFollowsABenchAndItsBailButtonBailsARun() throws Exception {
        Path state = tmp.resolve("state");
        URI url = startServe(state);
        assertThat(url.toString()).startsWith("http://127.0.0.1:").contains("/?t=");
        StringWriter benchOut = new StringWriter();
        CompletableFuture<Integer> bench = startBench(state, 2, benchOut);

        HttpClient http = HttpClient.newHttpClient();
        URI root = url.resolve("/");
        assertThat(http.send(HttpRequest.newBuilder(root).build(), HttpResponse.BodyHandlers.ofString()).statusCode())
                .as("no token").isEqualTo(403);
        assertThat(http.send(HttpRequest.newBuilder(root.resolve("/bench/live?t=wrong")).build(),
                HttpResponse.BodyHandlers.ofString()).statusCode()).as("a wrong token").isEqualTo(403);
        assertThat(http.send(HttpRequest.newBuilder(url).build(), HttpResponse.BodyHandlers.ofString()).statusCode())
                .as("the printed URL").isEqualTo(200);

        String bailed;
        String finishing;
        try (WebDriverSession browser = new WebDriverSession(tmp)) {
            browser.open(url.toString()); // the token's cookie
            browser.waitFor("the bench in the list", "return document.body.innerText.includes('live');",
                    v -> v.asBoolean());
            browser.screenshot(SHOTS.resolve("benches.png"));
            browser.open(root.resolve("/bench/live").toString());
            browser.script("window.notReloaded = true; return 1;");
            List<String> running = ids(browser.waitFor("two running runs", "return [...document.querySelectorAll("
                    + "'#running tr.running td:first-child')].map(e => e.innerText);", v -> v.size() == 2));
            browser.screenshot(SHOTS.resolve("bench-running.png"));
            bailed = running.get(0);
            finishing = running.get(1);

            browser.open(root.resolve("/run/" + bailed).toString());
            browser.script("window.notReloaded = true; return 1;");
            int first = browser.waitFor("output lines", "return document.querySelectorAll('#transcript .line').length;",
                    v -> v.asInt() >= 2).asInt();
            browser.waitFor("more output lines arriving", "return window.notReloaded === true"
                    + " && document.querySelectorAll('#transcript .line').length;", v -> v.asInt() > first);
            assertThat(browser.script("return document.querySelector('#transcript .line').textContent;").asText())
                    .startsWith("line 0");
            browser.screenshot(SHOTS.resolve("run-live.png"));
            browser.script("document.getElementById('bail-run').click(); return 1;");
            browser.waitFor("the run's end, bailed", "return document.getElementById('status') ? document"
                    + ".getElementById('status').innerText : '';", v -> v.asText().startsWith("bailed"));
            browser.screenshot(SHOTS.resolve("run-bailed.png"));

            browser.open(root.resolve("/bench/live").toString());
            browser.script("window.notReloaded = true; return 1;");
            browser.waitFor("one run still running", "return document.querySelectorAll('#running tr.running').length;",
                    v -> v.asInt() == 1);
            Files.writeString(state.resolve("runs").resolve(finishing).resolve("workspace/release"), "go\n");
            browser.waitFor("the other run's completion without a reload", "return window.notReloaded === true"
                    + " && document.querySelectorAll('#running tr.running').length === 0"
                    + " && document.getElementById('finished').innerText;",
                    v -> v.asText().contains(finishing) && v.asText().contains("completed"));
            assertThat(browser.script("return document.getElementById('leaderboard').innerText;").asText())
                    .contains("job-test");
            browser.screenshot(SHOTS.resolve("bench-done.png"));
        }

        int code = bench.get(120, TimeUnit.SECONDS);
        assertThat(code).as("a bailed run is not a finished bench: " + benchOut).isEqualTo(Harness4j.FAILED);
        List<StoredResult> results = ResultIndex.of(state).all();
        assertThat(results).extracting(StoredResult::runId, StoredResult::outcome).containsExactlyInAnyOrder(
                org.assertj.core.groups.Tuple.tuple(bailed, "bailed"), org.assertj.core.groups.Tuple.tuple(finishing, "completed"));
        assertThat(dev.harness4j.core.process.RunMarker.find(bailed, dev.harness4j.core.process.RunMarker.scopeOf(state)))
                .as("no process of the bailed run is left").isEmpty();
        try (var left = Files.list(state.resolve(dev.harness4j.bench.BailRequests.DIR))) {
            assertThat(left).as("the bail request was taken").isEmpty();
        }
    }

    /** A bench "live" of two tasks (alpha, beta) on harness-jobs' job-test harness, in this JVM. */
    private CompletableFuture<Integer> startBench(Path state, int concurrency, StringWriter benchOut) throws Exception {
        for (String t : List.of("alpha", "beta")) {
            Files.writeString(Files.createDirectories(tmp.resolve("suite").resolve(t)).resolve("task.json"),
                    "{\"instruction\": \"Create greeting.txt\", \"verify\": {\"command\": \"test -f greeting.txt\"}}");
        }
        Path repo = GitFixture.repo(Files.createDirectories(tmp.resolve("repo")));
        ProvidersFile.write(ProvidersFile.in(state), // the job-test harness never calls its provider
                List.of(ProviderConfig.scripted(URI.create("http://127.0.0.1:9"), "scripted-a")));
        Embedding script = new Embedding(null, UnaryOperator.identity(), Map.of("script", SCRIPT));
        return CompletableFuture.supplyAsync(() -> Harness4j.run(new PrintWriter(benchOut, true),
                new PrintWriter(benchOut, true), script, "bench", "run", "--state-dir", state.toString(), "--suite",
                tmp.resolve("suite").toString(), "--repo", repo.toString(), "--harness", "job-test", "--provider",
                "scripted", "--concurrency", String.valueOf(concurrency), "--id", "live"));
    }

    @Test
    void theBenchsBailButtonBailsWhatRunsAndStartsNothingMore() throws Exception {
        Path state = tmp.resolve("state");
        URI url = startServe(state);
        StringWriter benchOut = new StringWriter();
        CompletableFuture<Integer> bench = startBench(state, 1, benchOut);
        try (WebDriverSession browser = new WebDriverSession(tmp)) {
            browser.open(url.toString());
            browser.open(url.resolve("/bench/live").toString());
            browser.waitFor("one running run", "return document.querySelectorAll('#running tr.running').length;",
                    v -> v.asInt() == 1);
            browser.script("document.getElementById('bail-bench').click(); return 1;");
            browser.waitFor("the bench bailed: nothing running, one result, one still queued", "return document"
                    + ".querySelectorAll('#running tr.running').length === 0 && document.getElementById('queue').innerText;",
                    v -> v.asText().startsWith("queued 1") && v.asText().contains("results 1"));
            browser.screenshot(SHOTS.resolve("bench-bailed.png"));
        }
        assertThat(bench.get(120, TimeUnit.SECONDS)).as(benchOut.toString()).isEqualTo(Harness4j.FAILED);
        assertThat(ResultIndex.of(state).all()).extracting(StoredResult::outcome).containsExactly("bailed");
        assertThat(new LiveFiles(state).entries()).extracting(LiveState.Entry::state)
                .containsExactlyInAnyOrder("interrupted", "queued");
    }

    private static List<String> ids(com.fasterxml.jackson.databind.JsonNode array) {
        List<String> out = new java.util.ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    /** {@code harness4j serve} in a child JVM; the URL it prints. */
    private URI startServe(Path state) throws Exception {
        serve = ChildJvm.start(tmp, Harness4j.class.getName(), List.of(), List.of("serve", "--state-dir", state.toString()),
                "watch it live: ");
        return URI.create(serve.rest());
    }
}
