package dev.harness4j.bench.benchmarks;

import dev.harness4j.bench.BenchMetrics;
import dev.harness4j.bench.BenchReport;
import dev.harness4j.bench.BenchSummary;
import dev.harness4j.bench.SummaryFormat;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/**
 * Benchmark program (not a test): summary + metrics + leaderboard over many verified results
 * (target: 100,000 in at most 2 s warm, the cold first read printed beside it), and the bench
 * report directory for fewer runs with a diff, verify log and transcript each (target: 5,000 in
 * at most 5 s).
 *
 * <pre>
 * bash scripts/benchmarks.sh metrics        # 100000 results, a report of 5000 runs
 * java ... dev.harness4j.bench.benchmarks.MetricsReportBenchmark [results] [report runs]
 * </pre>
 */
public final class MetricsReportBenchmark {
    private MetricsReportBenchmark() {}

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        int reportRuns = args.length > 1 ? Integer.parseInt(args[1]) : 5_000;
        Path state = Files.createTempDirectory("h4j-metrics-bench");
        try {
            write(state.resolve("results"), n, reportRuns);
            System.out.printf("wrote %d verified results (%d with run files) under %s%n", n, reportRuns, state);
            long t0 = System.nanoTime();
            String board = once(state);
            long cold = (System.nanoTime() - t0) / 1_000_000;
            System.out.printf("cold (first read + metrics + leaderboard): %d ms%n", cold);
            long[] warm = new long[5];
            for (int i = 0; i < warm.length; i++) {
                long t = System.nanoTime();
                once(state);
                warm[i] = (System.nanoTime() - t) / 1_000_000;
            }
            Arrays.sort(warm);
            System.out.print(board.lines().limit(4).map(l -> "  " + l + "\n").reduce("", String::concat));
            System.out.printf("warm read + metrics + leaderboard: median %d ms (min %d, max %d) -> %s%n", warm[2], warm[0],
                    warm[4], warm[2] <= 2000 ? "PASS: at most 2 s" : "FAIL: over 2 s");
            Path reportState = Files.createTempDirectory("h4j-report-bench");
            try {
                write(reportState.resolve("results"), reportRuns, reportRuns);
                BenchSummary s = BenchSummary.read(reportState);
                long[] report = new long[3];
                for (int i = 0; i < report.length; i++) {
                    long t = System.nanoTime();
                    BenchReport.write(reportState.resolve("results"), s.rows(), BenchMetrics.of(s), null,
                            reportState.resolve("report"));
                    report[i] = (System.nanoTime() - t) / 1_000_000;
                }
                Arrays.sort(report);
                System.out.printf("report of %d runs (index + one page each): first %d ms... median %d ms -> %s%n",
                        reportRuns, report[0], report[1], report[1] <= 5000 ? "PASS: at most 5 s" : "FAIL: over 5 s");
            } finally {
                deleteTree(reportState);
            }
        } finally {
            deleteTree(state);
        }
    }

    private static String once(Path state) {
        BenchSummary s = BenchSummary.read(state);
        BenchMetrics m = BenchMetrics.of(s);
        return SummaryFormat.leaderboard(m) + SummaryFormat.taskGrid(m);
    }

    /** {@code n} results of 3 harnesses × 2 models × 50 tasks × 10 trials; the first {@code files} with run files. */
    static void write(Path results, int n, int files) throws IOException {
        for (int i = 0; i < n; i++) {
            String harness = "h" + i % 3;
            String model = "m" + (i / 3) % 2;
            String task = "bench/t" + (i / 6) % 50;
            int trial = 1 + (i / 300) % 10; // 10 trials; past 3,000 results a cell's trials repeat
            String run = "r" + i;
            Path d = Files.createDirectories(results.resolve(task.replace('/', '-')).resolve(harness + "__p__" + model)
                    .resolve(run));
            boolean pass = (i * 7919) % 10 < 6;
            String cost = i % 4 == 0 ? "null" : String.format(Locale.ROOT, "{\"usd\":%.4f,\"source\":\"meter\"}", 0.001 * (i % 9));
            String tokens = i % 5 == 0 ? "{\"input\":null,\"output\":null}" : "{\"input\":" + (1000 + i % 97) + ",\"output\":" + i % 50 + "}";
            Files.writeString(d.resolve("meta.json"), "{\"schema_version\":1,\"run_id\":\"r" + i + "\",\"harness\":\"" + harness
                    + "\",\"provider\":\"p\",\"model\":\"" + model + "\",\"resolved_model\":\"" + model + "\",\"task\":\"" + task
                    + "\",\"trial\":" + trial + ",\"outcome\":\"completed\",\"duration_ms\":" + (1000 + i % 3000)
                    + ",\"tokens\":" + tokens + ",\"cost\":" + cost + ",\"verify\":{\"status\":\"" + (pass ? "passed" : "failed")
                    + "\",\"reward\":" + (pass ? "1.0" : "0.0") + "}}\n", StandardCharsets.UTF_8);
            if (i < files) {
                Files.writeString(d.resolve("diff.patch"), "diff --git a/f.py b/f.py\n--- a/f.py\n+++ b/f.py\n@@ -1 +1 @@\n-x = 1\n+x = " + i + "\n");
                Files.writeString(d.resolve("verify.log"), pass ? "PASS\n" : "FAIL: x\n");
                Files.writeString(d.resolve("transcript.log"), "[agent] editing f.py\n".repeat(20));
            }
        }
    }

    private static void deleteTree(Path root) throws IOException {
        try (var paths = Files.walk(root)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
