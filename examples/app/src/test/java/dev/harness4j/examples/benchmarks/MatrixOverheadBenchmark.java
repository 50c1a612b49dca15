package dev.harness4j.examples.benchmarks;

import dev.harness4j.api.HarnessEvent;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.RunSpec;
import dev.harness4j.bench.Bench;
import dev.harness4j.bench.BenchPlan;
import dev.harness4j.bench.BenchRun;
import dev.harness4j.core.HarnessRegistry;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.queue.QueueProcessor;
import dev.harness4j.testkit.bench.ScriptedProvider;
import dev.harness4j.testkit.fake.FakeHarness;
import dev.harness4j.testkit.fake.FakeScript;
import dev.harness4j.testkit.model.Scenario;
import dev.harness4j.testkit.model.ScriptedModelServer;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Benchmark program (not a test): the scheduling overhead of a bench matrix (issue 16: "a matrix
 * at concurrency P finishes within 1.05 × (sum of run times / P) on the fake harness"). Runs a
 * {@link Bench} matrix of N fake-harness runs (one task × N models; each run an {@code sh}
 * process that stays silent for S seconds, then writes a file) at concurrency 1 and 2, and
 * compares the matrix's wall time ({@code Bench.run} whole: plan, queue, runs, summary,
 * leaderboard, both reports) with the sum of the run times ({@code HarnessRunner.run} per run,
 * timed around the queue's executor call: checkout, harness process, capture, result files).
 * Printed beside it, for information, the sum of the harness processes' own times (the runner's
 * RUNNING → CAPTURING events), i.e. the ratio with the runner's per-run work counted as overhead.
 *
 * <pre>
 * java -cp examples/app/target/test-classes:examples/app/target/classes:&lt;classpath&gt; \
 *     dev.harness4j.examples.benchmarks.MatrixOverheadBenchmark [runs=6] [seconds=5]
 * </pre>
 */
public final class MatrixOverheadBenchmark {
    private static final double TARGET = 1.05;

    private MatrixOverheadBenchmark() {}

    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 6;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        Path root = Files.createTempDirectory("h4j-matrix-bench");
        Path repo = sampleRepo(root.resolve("repo"));
        boolean missed = false;
        try (ScriptedModelServer server = ScriptedModelServer.start()) {
            for (int i = 0; i < runs; i++) {
                server.script("m" + i, Scenario.empty());
            }
            for (int concurrency : new int[] {1, 2}) {
                missed |= !measure(root.resolve("state-c" + concurrency), repo, server, runs, seconds, concurrency);
            }
        } finally {
            try (var paths = Files.walk(root)) {
                for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
        System.out.println(missed ? "MISSED the target at some concurrency" : "target met at every concurrency");
    }

    private static boolean measure(Path state, Path repo, ScriptedModelServer server, int runs, int seconds,
            int concurrency) throws Exception {
        Map<String, Instant> running = new ConcurrentHashMap<>();
        Map<String, Duration> processTime = new ConcurrentHashMap<>();
        AtomicLong runNanos = new AtomicLong();
        AtomicLong firstStart = new AtomicLong(Long.MAX_VALUE);
        AtomicLong lastEnd = new AtomicLong();
        HarnessRegistry registry = HarnessRegistry.builder().add(new FakeHarness()).build();
        String script = FakeScript.builder().silence(Duration.ofSeconds(seconds)).writeFile("out.txt", "x\n").build()
                .encode();
        String[] models = new String[runs];
        for (int i = 0; i < runs; i++) {
            models[i] = "m" + i;
        }
        long wallNanos;
        BenchRun done;
        try (HarnessRunner runner = HarnessRunner.builder().stateDir(state).registry(registry)
                .providers(new ScriptedProvider(server)).listener(e -> {
                    if (e instanceof HarnessEvent.StatusChanged s) {
                        if (s.status() == HarnessEvent.Status.RUNNING) {
                            running.put(s.runId(), s.at());
                        } else if (s.status() == HarnessEvent.Status.CAPTURING && running.containsKey(s.runId())) {
                            processTime.putIfAbsent(s.runId(), Duration.between(running.get(s.runId()), s.at()));
                        }
                    }
                }).build()) {
            Bench bench = Bench.builder(runner).concurrency(concurrency)
                    .out(new PrintStream(OutputStream.nullOutputStream()), false)
                    .decorate(exec -> timed(exec, runNanos, firstStart, lastEnd)).build();
            BenchPlan plan = bench.plan().id("overhead").harnesses(FakeHarness.ID).provider(ScriptedProvider.NAME)
                    .models(models).task("t", "bench").option(FakeHarness.SCRIPT_OPTION, script).baseline(repo)
                    .build();
            long t0 = System.nanoTime();
            done = bench.run(plan);
            long t1 = System.nanoTime();
            wallNanos = t1 - t0;
            System.out.printf("concurrency %d: before the first run %d ms, runs' span %d ms, after the last %d ms%n",
                    concurrency, TimeUnit.NANOSECONDS.toMillis(firstStart.get() - t0),
                    TimeUnit.NANOSECONDS.toMillis(lastEnd.get() - firstStart.get()),
                    TimeUnit.NANOSECONDS.toMillis(t1 - lastEnd.get()));
        }
        long wallMs = TimeUnit.NANOSECONDS.toMillis(wallNanos);
        long sumRunMs = TimeUnit.NANOSECONDS.toMillis(runNanos.get());
        long sumProcessMs = processTime.values().stream().mapToLong(Duration::toMillis).sum();
        double ratio = wallMs / (sumRunMs / (double) concurrency);
        System.out.printf("concurrency %d: %d runs (%d done), matrix wall %d ms, sum of run times %d ms, "
                        + "ratio wall / (sum / P) = %.3f (target <= %.2f: %s); sum of harness process times %d ms, "
                        + "ratio to those %.3f%n",
                concurrency, runs, done.processed().done(), wallMs, sumRunMs, ratio, TARGET,
                ratio <= TARGET ? "met" : "MISSED", sumProcessMs, wallMs / (sumProcessMs / (double) concurrency));
        return ratio <= TARGET;
    }

    private static QueueProcessor.Executor timed(QueueProcessor.Executor exec, AtomicLong nanos, AtomicLong firstStart,
            AtomicLong lastEnd) {
        return new QueueProcessor.Executor() {
            @Override
            public HarnessResult run(String runId, RunSpec spec) throws Exception {
                long t0 = System.nanoTime();
                firstStart.accumulateAndGet(t0, Math::min);
                try {
                    return exec.run(runId, spec);
                } finally {
                    long t1 = System.nanoTime();
                    nanos.addAndGet(t1 - t0);
                    lastEnd.accumulateAndGet(t1, Math::max);
                }
            }

            @Override
            public boolean bail(String runId) {
                return exec.bail(runId);
            }
        };
    }

    private static Path sampleRepo(Path dir) throws Exception {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("README.md"), "# bench\n", StandardCharsets.UTF_8);
        for (String[] cmd : new String[][] {{"git", "init", "-q", "-b", "main"}, {"git", "add", "-A"},
            {"git", "-c", "user.name=b", "-c", "user.email=b@b", "commit", "-q", "-m", "init"}}) {
            Process p = new ProcessBuilder(cmd).directory(dir.toFile()).inheritIO().start();
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException("git failed: " + String.join(" ", cmd));
            }
        }
        return dir;
    }
}
