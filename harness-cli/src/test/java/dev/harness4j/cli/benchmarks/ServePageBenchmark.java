package dev.harness4j.cli.benchmarks;

import dev.harness4j.cli.Harness4j;
import dev.harness4j.testkit.browser.WebDriverSession;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Benchmark program (not a test): how long the {@code harness4j serve} page of a bench of N runs
 * (default 5,000; target: its first screen in ≤ 1 s) takes in headless Chromium. Writes N
 * synthetic results (a {@code meta.json} each) of one bench into a temporary state dir, serves
 * it in this JVM, then opens {@code /bench/<id>} K times through chromedriver and reads the
 * page's own clock after forcing layout ({@code performance.now()} at the {@code load} event:
 * the request, the server reading N results, parsing, styling, layout). Also the server alone:
 * the median time of a {@code GET} of the page with the JDK's client. Skips (exit 0, saying so)
 * when Chromium or chromedriver is missing.
 *
 * <pre>
 * bash scripts/benchmarks.sh serve      # 5000 runs, 5 openings
 * java ... dev.harness4j.cli.benchmarks.ServePageBenchmark [runs] [openings]
 * </pre>
 */
public final class ServePageBenchmark {
    private static final long TARGET_MS = 1000;

    private ServePageBenchmark() {}

    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 5_000;
        int openings = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        if (!Files.isExecutable(Path.of("/usr/bin/chromium")) || !Files.isExecutable(Path.of("/usr/bin/chromedriver"))) {
            System.out.println("SKIPPED: chromium or chromedriver is not installed"
                    + " (apt-get install -y chromium chromium-driver; scripts/test.sh does)");
            return;
        }
        Path tmp = Files.createTempDirectory("h4j-serve-bench");
        Path state = tmp.resolve("state");
        for (int i = 0; i < runs; i++) {
            String task = "t" + (i % 50);
            String run = String.format("r-20261201T000000-%010d", i);
            Path d = Files.createDirectories(state.resolve("results").resolve("big-" + task)
                    .resolve("aider__p__m" + (i % 4)).resolve(run));
            Files.writeString(d.resolve("meta.json"), "{\"schema_version\":1,\"run_id\":\"" + run + "\",\"harness\":"
                    + "\"aider\",\"provider\":\"p\",\"model\":\"m" + (i % 4) + "\",\"task\":\"big/" + task + "\",\"trial\":"
                    + (1 + i / 200) + ",\"outcome\":\"completed\",\"duration_ms\":" + (1000 + i) + ",\"verify\":{\"status\":\""
                    + (i % 3 == 0 ? "failed" : "passed") + "\"}}");
        }
        StringWriter out = new StringWriter();
        Thread serve = new Thread(() -> Harness4j.run(new PrintWriter(out, true), new PrintWriter(out, true), "serve",
                "--state-dir", state.toString()), "serve");
        serve.setDaemon(true);
        serve.start();
        Instant until = Instant.now().plusSeconds(30);
        while (!out.toString().contains("watch it live: ") && Instant.now().isBefore(until)) {
            Thread.sleep(50);
        }
        String line = out.toString().lines().filter(l -> l.startsWith("watch it live: ")).findFirst()
                .orElseThrow(() -> new IllegalStateException("serve printed no URL: " + out));
        URI url = URI.create(line.substring("watch it live: ".length()));
        URI page = url.resolve("/bench/big?" + url.getRawQuery());

        HttpClient http = HttpClient.newHttpClient();
        List<Long> server = new ArrayList<>();
        int bytes = 0;
        for (int i = 0; i < openings + 1; i++) {
            long t0 = System.nanoTime();
            bytes = http.send(HttpRequest.newBuilder(page).build(), HttpResponse.BodyHandlers.ofString()).body().length();
            if (i > 0) { // the first warms the JVM up
                server.add((System.nanoTime() - t0) / 1_000_000);
            }
        }
        List<Long> browser = new ArrayList<>();
        try (WebDriverSession b = new WebDriverSession(tmp)) {
            b.open(url.toString());
            for (int i = 0; i < openings; i++) {
                b.open(page.toString()); // returns once the load event has fired
                browser.add(b.script("document.body.offsetHeight; return Math.round(performance.now());").asLong());
            }
        }
        System.out.printf("serve bench page of %d runs (%d bytes of HTML): server median %d ms; in Chromium"
                + " (request to laid-out load) median %d ms, all %s; target <= %d ms: %s%n", runs, bytes, median(server),
                median(browser), browser, TARGET_MS, median(browser) <= TARGET_MS ? "met" : "NOT met");
        try (var files = Files.walk(tmp)) {
            files.sorted(Collections.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    private static long median(List<Long> xs) {
        List<Long> s = new ArrayList<>(xs);
        Collections.sort(s);
        return s.get(s.size() / 2);
    }
}
