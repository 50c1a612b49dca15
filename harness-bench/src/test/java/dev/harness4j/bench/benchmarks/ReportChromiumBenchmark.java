package dev.harness4j.bench.benchmarks;

import dev.harness4j.bench.BenchMetrics;
import dev.harness4j.bench.BenchReport;
import dev.harness4j.bench.BenchSummary;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Benchmark program (not a test): how long the bench report of N runs (default 5,000; target
 * under 3 s) takes to open in headless Chromium. Writes the report of N synthetic verified runs
 * (each with a diff, a verify log, a transcript and events), then opens its {@code index.html}
 * from {@code file://} with {@code chromium --headless --dump-dom} several times, each with a
 * fresh profile, and takes two measurements of each opening:
 * <ul>
 *   <li><b>page</b> (the target's figure): the page's own clock. A copy of the index gets a probe
 *       script before {@code </body>}; on the {@code load} event it forces style and layout of
 *       the whole document ({@code document.body.offsetHeight}), then writes
 *       {@code performance.now()} (milliseconds since the navigation started: reading the file,
 *       parsing, running the page's scripts, styling and laying out every table) into the DOM,
 *       which {@code --dump-dom} prints;</li>
 *   <li><b>browser</b>: the wall time of the whole {@code chromium} process minus that of the
 *       same command on an empty page (the browser's own start and stop), for comparison.</li>
 * </ul>
 * A run page is measured the same way. Skips (exit 0, saying so) when Chromium is missing.
 *
 * <pre>
 * bash scripts/benchmarks.sh report        # 5000 runs, 5 openings
 * java ... dev.harness4j.bench.benchmarks.ReportChromiumBenchmark [runs] [openings]
 * </pre>
 */
public final class ReportChromiumBenchmark {
    private static final long TARGET_MS = 3000;
    private static final String PROBE = "<script>addEventListener('load',()=>{const h=document.body.offsetHeight;"
            + "const p=document.createElement('p');p.id='h4j-loaded';p.textContent='loaded-ms='+performance.now().toFixed(0)"
            + "+' height='+h;document.body.appendChild(p);});</script>";
    private static final Pattern LOADED = Pattern.compile("loaded-ms=(\\d+)");

    private ReportChromiumBenchmark() {}

    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 5_000;
        int openings = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        Path chromium = List.of("/usr/bin/chromium", "/usr/bin/chromium-browser").stream().map(Path::of)
                .filter(Files::isExecutable).findFirst().orElse(null);
        if (chromium == null) {
            System.out.println("SKIPPED: chromium is not installed (apt-get install -y chromium; scripts/test.sh does)");
            return;
        }
        Path state = Files.createTempDirectory("h4j-report-chromium-bench");
        try {
            MetricsReportBenchmark.write(state.resolve("results"), runs, runs);
            BenchSummary s = BenchSummary.read(state);
            long t0 = System.nanoTime();
            Path index = BenchReport.write(state.resolve("results"), s.rows(), BenchMetrics.of(s), null, state.resolve("report"));
            System.out.printf("report of %d runs written in %d ms; index.html %d KiB%n", runs,
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0), Files.size(index) / 1024);
            Path empty = Files.writeString(state.resolve("empty.html"), "<!DOCTYPE html><html><body>" + PROBE + "</body></html>");
            Path timedIndex = probed(index, "index-timed.html");
            Path timedRun = probed(index.resolveSibling("runs").resolve("0.html"), "0-timed.html");
            Chromium c = new Chromium(chromium, state);
            c.open(empty); // the first start of a browser warms the OS's file cache: not counted
            long[] emptyWall = new long[openings];
            for (int i = 0; i < openings; i++) {
                emptyWall[i] = c.open(empty).wallMs;
            }
            long baseline = median(emptyWall);
            System.out.printf("empty page: browser wall median %d ms (the browser's own start and stop)%n", baseline);
            boolean met = report("index.html", c, timedIndex, openings, baseline);
            report("runs/0.html", c, timedRun, openings, baseline);
            System.out.println(met ? "PASS: the index opens in under 3 s" : "FAIL: the index takes 3 s or more");
        } finally {
            try (var paths = Files.walk(state)) {
                for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    private static boolean report(String name, Chromium c, Path page, int openings, long baseline) throws Exception {
        long[] pageMs = new long[openings];
        long[] wall = new long[openings];
        for (int i = 0; i < openings; i++) {
            Opening o = c.open(page);
            pageMs[i] = o.pageMs;
            wall[i] = o.wallMs;
        }
        long median = median(pageMs);
        System.out.printf("%s: page load + layout (performance.now() at load) median %d ms (min %d, max %d); "
                        + "browser wall minus the empty page's median %d ms -> %s%n", name, median,
                Arrays.stream(pageMs).min().orElse(0), Arrays.stream(pageMs).max().orElse(0), median(wall) - baseline,
                median < TARGET_MS ? "under 3 s" : "3 s or more");
        return median < TARGET_MS;
    }

    private static Path probed(Path page, String name) throws IOException {
        String html = Files.readString(page, StandardCharsets.UTF_8);
        int end = html.lastIndexOf("</body>");
        if (end < 0) {
            throw new IllegalStateException("no </body> in " + page);
        }
        return Files.writeString(page.resolveSibling(name), html.substring(0, end) + PROBE + html.substring(end),
                StandardCharsets.UTF_8);
    }

    private static long median(long[] values) {
        long[] v = values.clone();
        Arrays.sort(v);
        return v[v.length / 2];
    }

    private record Opening(long pageMs, long wallMs) {}

    private record Chromium(Path binary, Path dir) {
        Opening open(Path page) throws Exception {
            Path profile = Files.createTempDirectory(dir, "profile");
            List<String> cmd = new ArrayList<>(List.of(binary.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                    "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                    "--user-data-dir=" + profile, "--window-size=1400,1000", "--dump-dom", page.toUri().toString()));
            Path out = dir.resolve("chromium.out");
            Path err = dir.resolve("chromium.err");
            long t0 = System.nanoTime();
            Process p = new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            try {
                if (!p.waitFor(120, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("chromium did not finish within 120 s on " + page);
                }
            } finally {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
            }
            long wall = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            String dom = Files.readString(out, StandardCharsets.UTF_8);
            Matcher m = LOADED.matcher(dom);
            if (p.exitValue() != 0 || !m.find()) {
                throw new IllegalStateException("chromium exited " + p.exitValue() + " without the probe's mark on " + page
                        + ": " + Files.readString(err, StandardCharsets.UTF_8));
            }
            return new Opening(Long.parseLong(m.group(1)), wall);
        }
    }
}
