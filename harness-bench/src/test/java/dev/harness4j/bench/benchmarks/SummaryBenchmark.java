package dev.harness4j.bench.benchmarks;

import dev.harness4j.bench.BenchSummary;
import dev.harness4j.bench.HtmlReport;
import dev.harness4j.bench.SummaryFormat;
import dev.harness4j.bench.SyntheticMeta;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Benchmark program (not a test): the summary over 10,000 synthetic meta files, some broken.
 * Target: under 1 s, counted from a cold JVM's first read to the rendered table and totals.
 *
 * <pre>
 * mvn -B -o -q -pl harness-core -am test-compile
 * java -cp harness-core/target/classes:harness-core/target/test-classes:harness-api/target/classes:&lt;jackson, slf4j jars&gt; \
 *     dev.harness4j.bench.benchmarks.SummaryBenchmark [count]
 * </pre>
 */
public final class SummaryBenchmark {
    private SummaryBenchmark() {}

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        Path state = Files.createTempDirectory("h4j-summary-bench");
        try {
            int broken = SyntheticMeta.writeMany(state.resolve("results"), n);
            System.out.printf("wrote %d result dirs (%d broken) under %s%n", n, broken, state);
            long cpu0 = cpuNanos();
            long t0 = System.nanoTime();
            BenchSummary s = BenchSummary.read(state);
            String table = SummaryFormat.table(s);
            String totals = SummaryFormat.totalsLine(s.totals());
            long cold = System.nanoTime() - t0;
            long coldCpu = cpuNanos() - cpu0;
            check(s, n, broken);
            System.out.printf("cold (first read in this JVM + table + totals): wall %d ms, process CPU %d ms; %d rows, %d problems%n",
                    cold / 1_000_000, coldCpu / 1_000_000, s.rows().size(), s.problems().size());
            System.out.printf("load average at the end: %.2f on %d cores; %s%n",
                    java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
                    Runtime.getRuntime().availableProcessors(), totals);
            long[] warm = new long[5];
            long[] warmCpu = new long[5];
            for (int i = 0; i < warm.length; i++) {
                long c = cpuNanos();
                long t = System.nanoTime();
                BenchSummary again = BenchSummary.read(state);
                SummaryFormat.table(again);
                warm[i] = (System.nanoTime() - t) / 1_000_000;
                warmCpu[i] = (cpuNanos() - c) / 1_000_000;
            }
            Arrays.sort(warm);
            Arrays.sort(warmCpu);
            System.out.printf("warm read + table: process CPU median %d ms%n", warmCpu[warmCpu.length / 2]);
            long t = System.nanoTime();
            String html = HtmlReport.render(s);
            long htmlMs = (System.nanoTime() - t) / 1_000_000;
            System.out.printf("warm read + table: median %d ms (min %d, max %d); html render %d ms (%d KB)%n",
                    warm[warm.length / 2], warm[0], warm[warm.length - 1], htmlMs, html.length() / 1024);
            System.out.println(cold / 1_000_000 < 1000 ? "PASS: under 1 s" : "FAIL: over 1 s");
        } finally {
            RunQueueCleaner.deleteTree(state);
        }
    }

    private static long cpuNanos() {
        var os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getProcessCpuTime() : 0;
    }

    private static void check(BenchSummary s, int n, int broken) {
        if (s.rows().size() + s.problems().size() != n || s.problems().size() != broken) {
            throw new IllegalStateException("expected " + (n - broken) + " rows and " + broken + " problems, got "
                    + s.rows().size() + " and " + s.problems().size());
        }
    }

    /** Recursive delete for the temp dir. */
    private static final class RunQueueCleaner {
        static void deleteTree(Path root) throws java.io.IOException {
            try (var paths = Files.walk(root)) {
                for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }
}
