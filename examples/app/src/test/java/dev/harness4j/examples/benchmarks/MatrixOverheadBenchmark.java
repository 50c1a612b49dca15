package dev.harness4j.examples.benchmarks;

import dev.harness4j.api.HarnessEvent;
import dev.harness4j.api.RunSpec;
import dev.harness4j.core.HarnessRegistry;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.queue.QueueProcessor;
import dev.harness4j.core.queue.RunQueue;
import dev.harness4j.testkit.bench.ScriptedProvider;
import dev.harness4j.testkit.fake.FakeHarness;
import dev.harness4j.testkit.fake.FakeScript;
import dev.harness4j.testkit.model.Scenario;
import dev.harness4j.testkit.model.ScriptedModelServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Benchmark program (not a test): the overhead of a bench matrix. Runs N fake-harness runs (each
 * a {@code sh} process that stays silent for S seconds, then writes a file) through the durable
 * queue and the runner, at concurrency 1 and 2, and compares the wall time with the sum of the
 * harness processes' own times (from the runner's RUNNING → CAPTURING events). Target: wall ≤
 * 1.15 × (sum / concurrency).
 *
 * <pre>
 * java -cp examples/app/target/test-classes:examples/app/target/classes:&lt;classpath&gt; \
 *     dev.harness4j.examples.bench.MatrixOverheadBenchmark [runs=6] [seconds=5]
 * </pre>
 */
public final class MatrixOverheadBenchmark {
    private MatrixOverheadBenchmark() {}

    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 6;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        Path root = Files.createTempDirectory("h4j-matrix-bench");
        Path repo = sampleRepo(root.resolve("repo"));
        try (ScriptedModelServer server = ScriptedModelServer.start()) {
            for (int i = 0; i < runs; i++) {
                server.script("m" + i, Scenario.empty());
            }
            for (int concurrency : new int[] {1, 2}) {
                measure(root.resolve("state-c" + concurrency), repo, server, runs, seconds, concurrency);
            }
        } finally {
            try (var paths = Files.walk(root)) {
                for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    private static void measure(Path state, Path repo, ScriptedModelServer server, int runs, int seconds,
            int concurrency) throws Exception {
        Map<String, Instant> running = new ConcurrentHashMap<>();
        Map<String, Duration> processTime = new ConcurrentHashMap<>();
        HarnessRegistry registry = HarnessRegistry.builder().add(new FakeHarness()).build();
        RunQueue queue = RunQueue.builder().stateDir(state).build();
        List<RunSpec> specs = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            specs.add(FakeScript.builder().silence(Duration.ofSeconds(seconds)).writeFile("out" + i + ".txt", "x\n").build()
                    .applyTo(RunSpec.builder(FakeHarness.ID, ScriptedProvider.NAME)).model("m" + i)
                    .prompt("bench").baseline(repo).build());
        }
        queue.enqueue(specs);
        long t0 = System.nanoTime();
        QueueProcessor.Summary summary;
        try (HarnessRunner runner = HarnessRunner.builder().stateDir(state).registry(registry)
                .providers(new ScriptedProvider(server)).listener(e -> {
                    if (e instanceof HarnessEvent.StatusChanged s) {
                        if (s.status() == HarnessEvent.Status.RUNNING) {
                            running.put(s.runId(), s.at());
                        } else if (s.status() == HarnessEvent.Status.CAPTURING && running.containsKey(s.runId())) {
                            processTime.put(s.runId(), Duration.between(running.get(s.runId()), s.at()));
                        }
                    }
                }).build();
                QueueProcessor p = QueueProcessor.builder(queue, QueueProcessor.Executor.of(runner))
                        .concurrency(concurrency).build()) {
            summary = p.runAll();
        }
        long wallMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        long sumMs = processTime.values().stream().mapToLong(Duration::toMillis).sum();
        double ideal = sumMs / (double) concurrency;
        System.out.printf("concurrency %d: %d runs (%d done), wall %d ms, sum of harness process times %d ms, "
                        + "ratio wall / (sum / concurrency) = %.3f (target <= 1.15)%n",
                concurrency, runs, summary.done(), wallMs, sumMs, wallMs / ideal);
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
