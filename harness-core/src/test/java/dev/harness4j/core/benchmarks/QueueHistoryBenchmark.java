package dev.harness4j.core.benchmarks;

import dev.harness4j.core.queue.FileQueueStore;
import dev.harness4j.core.queue.QueueEntry;
import dev.harness4j.core.queue.QueueProcessor;
import dev.harness4j.core.queue.RunQueue;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.RunSpec;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * How the queue's cost grows with finished history (issue 24, item 1): for each history size, a
 * state dir holding that many {@code done} entries, then
 *
 * <ul>
 *   <li><b>per-entry overhead</b>: {@code runAll} over {@code entries} fresh entries whose
 *       executor returns at once, in ms per entry;
 *   <li><b>idle CPU</b>: the process's CPU time while a processor (default 500 ms poll) waits
 *       on one long run, as a share of one core.
 * </ul>
 *
 * Uses only API that exists before and after the fix, so the same file runs on an older
 * checkout. Run from {@code harness-core} after {@code mvn -o test-compile}:
 *
 * <pre>
 * java -cp target/classes:target/test-classes:$(cat cp.txt) \
 *     dev.harness4j.core.queue.QueueHistoryBenchmark [histories=0,10000,100000] [entries=200] [idleSeconds=5]
 * </pre>
 */
public final class QueueHistoryBenchmark {
    private QueueHistoryBenchmark() {}

    public static void main(String[] args) throws Exception {
        String[] sizes = (args.length > 0 ? args[0] : "0,10000,100000").split(",");
        int entries = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        int idleSeconds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        System.out.printf(Locale.ROOT, "%10s %14s %14s%n", "history", "ms/entry", "idle %core");
        for (String s : sizes) {
            int history = Integer.parseInt(s.trim());
            Path state = Files.createTempDirectory("queue-bench");
            try {
                fillHistory(state, history);
                double perEntry = perEntryMillis(state, entries);
                double idle = idleCpuShare(state, idleSeconds);
                System.out.printf(Locale.ROOT, "%10d %14.3f %13.2f%%%n", history, perEntry, idle * 100);
            } finally {
                deleteTree(state);
            }
        }
    }

    private static RunSpec spec(int i) {
        return RunSpec.builder("h", "p" + (i % 3)).model("m").prompt("p").baseline(Path.of("/tmp/baseline"))
                .task("t").build();
    }

    /** {@code n} finished entries, written through the store (two threads). */
    private static void fillHistory(Path state, int n) throws Exception {
        FileQueueStore store = new FileQueueStore(state.resolve("queue"));
        Instant t0 = Instant.parse("2020-01-01T00:00:00Z");
        ExecutorService pool = Executors.newFixedThreadPool(2);
        List<Future<?>> parts = new ArrayList<>();
        for (int part = 0; part < 2; part++) {
            int p = part;
            parts.add(pool.submit(() -> {
                for (int i = p; i < n; i += 2) {
                    Instant at = t0.plusMillis(i);
                    store.add(QueueEntry.queued(String.format(Locale.ROOT, "h-%07d", i), spec(i), at)
                            .ended(QueueEntry.State.DONE, "completed", null, at));
                }
            }));
        }
        for (Future<?> f : parts) {
            f.get();
        }
        pool.shutdown();
    }

    private static double perEntryMillis(Path state, int entries) throws Exception {
        RunQueue queue = RunQueue.builder().stateDir(state).build();
        List<RunSpec> specs = new ArrayList<>();
        for (int i = 0; i < entries; i++) {
            specs.add(spec(i));
        }
        queue.enqueue(specs);
        QueueProcessor.Executor instant = (runId, spec) -> HarnessResult.builder(Outcome.COMPLETED, "m").build();
        try (QueueProcessor p = QueueProcessor.builder(queue, instant).build()) {
            long t = System.nanoTime();
            QueueProcessor.Summary s = p.runAll();
            long ns = System.nanoTime() - t;
            if (s.done() != entries) {
                throw new IllegalStateException("expected " + entries + " done, got " + s);
            }
            return ns / 1e6 / entries;
        }
    }

    private static double idleCpuShare(Path state, int seconds) throws Exception {
        RunQueue queue = RunQueue.builder().stateDir(state).build();
        queue.enqueue(spec(0));
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        QueueProcessor.Executor waiting = (runId, spec) -> {
            running.countDown();
            release.await();
            return HarnessResult.builder(Outcome.COMPLETED, "m").build();
        };
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        ExecutorService bg = Executors.newSingleThreadExecutor();
        try (QueueProcessor p = QueueProcessor.builder(queue, waiting).build()) {
            Future<QueueProcessor.Summary> run = bg.submit(p::runAll);
            running.await();
            Thread.sleep(1000); // let the start settle
            long cpu0 = os.getProcessCpuTime();
            long t0 = System.nanoTime();
            Thread.sleep(Duration.ofSeconds(seconds).toMillis());
            double share = (double) (os.getProcessCpuTime() - cpu0) / (System.nanoTime() - t0);
            release.countDown();
            run.get(10, TimeUnit.MINUTES);
            return share;
        } finally {
            bg.shutdownNow();
        }
    }

    private static void deleteTree(Path root) throws IOException {
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException exc) throws IOException {
                Files.delete(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
