package dev.harness4j.core.benchmarks;

import dev.harness4j.api.Invocation;
import dev.harness4j.core.process.ProcessOutcome;
import dev.harness4j.core.process.ProcessRequest;
import dev.harness4j.core.process.ProcessSupervisor;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Measures what {@link ProcessSupervisor#run} adds to spawning a short process directly: the
 * same {@code sh -c 'echo ... > file'} run {@code N} times each way in a warm JVM, interleaved.
 *
 * <pre>
 * java -cp ... dev.harness4j.core.benchmarks.SupervisorOverheadBenchmark [runs=50]
 * </pre>
 */
public final class SupervisorOverheadBenchmark {
    private static final int WARMUP = 10;

    private SupervisorOverheadBenchmark() {}

    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 50;
        Path root = Files.createTempDirectory("harness4j-overhead");
        String script = "echo hello > out.txt";
        List<Double> direct = new ArrayList<>();
        List<Double> supervised = new ArrayList<>();
        try (ProcessSupervisor supervisor = ProcessSupervisor.builder().build()) {
            for (int i = 0; i < WARMUP + runs; i++) {
                Path d = Files.createDirectories(root.resolve("d" + i));
                Path s = Files.createDirectories(root.resolve("s" + i));
                long t0 = System.nanoTime();
                Process p = new ProcessBuilder("sh", "-c", script).directory(d.toFile())
                        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                        .redirectOutput(d.resolve("stdout.log").toFile())
                        .redirectError(d.resolve("stderr.log").toFile()).start();
                if (p.waitFor() != 0) {
                    throw new IllegalStateException("direct run failed");
                }
                long t1 = System.nanoTime();
                ProcessOutcome o = supervisor.run(ProcessRequest.builder("bench-" + ProcessHandle.current().pid() + "-" + i,
                        Invocation.builder("sh", "-c", script).workingDir(s).build(), s).build());
                long t2 = System.nanoTime();
                if (o.exitCode() == null || o.exitCode() != 0) {
                    throw new IllegalStateException("supervised run failed: " + o);
                }
                if (i >= WARMUP) {
                    direct.add((t1 - t0) / 1e6);
                    supervised.add((t2 - t1) / 1e6);
                }
            }
        }
        double md = median(direct);
        double ms = median(supervised);
        System.out.printf("runs=%d direct median %.1f ms (p90 %.1f), supervised median %.1f ms (p90 %.1f), "
                        + "overhead %.1f ms, ratio %.2fx%n",
                runs, md, pct(direct, 0.9), ms, pct(supervised, 0.9), ms - md, ms / md);
    }

    private static double median(List<Double> xs) {
        return pct(xs, 0.5);
    }

    private static double pct(List<Double> xs, double q) {
        List<Double> s = new ArrayList<>(xs);
        Collections.sort(s);
        return s.get((int) Math.min(s.size() - 1, Math.floor(q * s.size())));
    }
}
