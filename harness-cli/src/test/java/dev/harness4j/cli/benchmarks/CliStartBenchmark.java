package dev.harness4j.cli.benchmarks;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Benchmark program (not a test): how fast the installed {@code harness4j} command starts. N
 * rounds, the contenders interleaved (the order turns every round), each a fresh process:
 * {@code java -version} (the JVM's floor), the distribution's {@code bin/harness4j --version}
 * and {@code harnesses list} (the seven adapters loaded), and, given a checkout, the
 * from-checkout wrapper {@code scripts/harness4j --version} with nothing to rebuild (its stamp
 * check on top). Reports each median wall time. Target: {@code harness4j --version} ≤ 0.5 s.
 *
 * <pre>
 * java -cp ... dev.harness4j.cli.benchmarks.CliStartBenchmark [starts=10] DIST-DIR [CHECKOUT]
 * </pre>
 */
public final class CliStartBenchmark {
    /** The target of {@code harness4j --version}'s median: 0.5 s. */
    static final double TARGET_SECONDS = 0.5;

    private CliStartBenchmark() {}

    public static void main(String[] args) throws Exception {
        int starts = Integer.parseInt(args[0]);
        Path dist = Path.of(args[1]).toAbsolutePath();
        Path launcher = dist.resolve("bin/harness4j");
        Map<String, List<String>> contenders = new LinkedHashMap<>();
        contenders.put("java -version", List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-version"));
        contenders.put("harness4j --version", List.of(launcher.toString(), "--version"));
        contenders.put("harness4j harnesses list", List.of(launcher.toString(), "harnesses", "list"));
        if (args.length > 2) {
            contenders.put("scripts/harness4j --version", List.of("bash",
                    Path.of(args[2]).resolve("scripts/harness4j").toString(), "--version"));
        }
        for (List<String> cmd : contenders.values()) {
            once(cmd); // warm the page cache (and build the checkout's distribution if it is stale)
        }
        Map<String, List<Double>> times = new LinkedHashMap<>();
        contenders.keySet().forEach(k -> times.put(k, new ArrayList<>()));
        List<String> order = new ArrayList<>(contenders.keySet());
        for (int i = 0; i < starts; i++) {
            Collections.rotate(order, 1);
            for (String name : order) {
                times.get(name).add(once(contenders.get(name)));
            }
        }
        System.out.printf("harness4j start, %d starts each, interleaved (%s)%n", starts, dist);
        times.forEach((name, t) -> System.out.printf("  %-30s median %.3f s  (min %.3f, max %.3f)%n", name, median(t),
                Collections.min(t), Collections.max(t)));
        double version = median(times.get("harness4j --version"));
        System.out.printf("harness4j --version: median %.3f s, target <= %.1f s: %s%n", version, TARGET_SECONDS,
                version <= TARGET_SECONDS ? "met" : "MISSED");
    }

    /** One start's wall time in seconds; fails on a non-zero exit. */
    private static double once(List<String> cmd) throws Exception {
        long t0 = System.nanoTime();
        Process p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD).redirectInput(ProcessBuilder.Redirect.from(
                        new File("/dev/null"))).start();
        if (!p.waitFor(10, TimeUnit.MINUTES) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IllegalStateException(String.join(" ", cmd) + " failed (exit " + p.exitValue() + ")");
        }
        return (System.nanoTime() - t0) / 1e9;
    }

    private static double median(List<Double> values) {
        List<Double> s = new ArrayList<>(values);
        Collections.sort(s);
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }
}
