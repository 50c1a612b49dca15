package dev.harness4j.core.benchmarks;

import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.RunSpec;
import dev.harness4j.core.queue.FileQueueStore;
import dev.harness4j.core.queue.QueueEntry;
import dev.harness4j.core.queue.QueueProcessor;
import dev.harness4j.core.queue.QueueStore;
import dev.harness4j.core.queue.RunQueue;
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
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;

/**
 * How the queue's scheduling cost grows with finished history (issues 24 and 34): one state dir
 * per history size, holding that many {@code done} entries, then, side by side in one run:
 *
 * <ul>
 *   <li><b>per-entry scheduling</b>: {@code runAll} over {@code entries} fresh entries at
 *       {@code concurrency}, through an executor that returns at once, in ms per entry; the
 *       sizes take turns for {@code rounds} rounds (the fresh entries are removed after each, so
 *       the history stays the same) and the median is printed, with its ratio to the empty
 *       queue's (target: at most 2x);
 *   <li><b>where it goes</b>: the time spent listing the active entries (the processor's polls)
 *       and updating entries (claims and finishes, each under the entry's lock), per entry
 *       (updates overlap: they run on the processor's threads at once);
 *   <li><b>list() calls</b>: how often the processor read the whole history ({@link
 *       QueueStore#list()}) during those rounds, counted by a store that delegates to the file
 *       store: 0 when the history is off the claim path;
 *   <li><b>idle CPU</b>: the process's CPU time while a processor (default 500 ms poll) waits
 *       on one long run, as a share of one core.
 * </ul>
 *
 * Run by {@code bash scripts/benchmarks.sh queue}. Args: {@code [histories=0,10000,100000]
 * [entries=1000] [idleSeconds=5] [concurrency=4] [rounds=3]}.
 */
public final class QueueHistoryBenchmark {
    private QueueHistoryBenchmark() {}

    public static void main(String[] args) throws Exception {
        String[] sizes = (args.length > 0 ? args[0] : "0,10000,100000").split(",");
        int entries = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
        int idleSeconds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        int concurrency = args.length > 3 ? Integer.parseInt(args[3]) : 4;
        int rounds = args.length > 4 ? Integer.parseInt(args[4]) : 3;
        List<Integer> histories = new ArrayList<>();
        List<Path> states = new ArrayList<>();
        try {
            for (String s : sizes) {
                int history = Integer.parseInt(s.trim());
                Path state = Files.createTempDirectory("queue-bench");
                states.add(state);
                histories.add(history);
                long t = System.nanoTime();
                fillHistory(state, history);
                System.err.printf(Locale.ROOT, "history of %d written in %.1f s%n", history, (System.nanoTime() - t) / 1e9);
            }
            List<List<Double>> perEntry = new ArrayList<>();
            List<List<Double>> listing = new ArrayList<>();
            List<List<Double>> updating = new ArrayList<>();
            List<AtomicInteger> listCalls = new ArrayList<>();
            for (int i = 0; i < states.size(); i++) {
                perEntry.add(new ArrayList<>());
                listing.add(new ArrayList<>());
                updating.add(new ArrayList<>());
                listCalls.add(new AtomicInteger());
            }
            for (int r = 0; r < rounds; r++) {
                for (int i = 0; i < states.size(); i++) {
                    double[] m = perEntryMillis(states.get(i), entries, concurrency, listCalls.get(i));
                    perEntry.get(i).add(m[0]);
                    listing.get(i).add(m[1]);
                    updating.get(i).add(m[2]);
                }
            }
            System.out.printf(Locale.ROOT, "%d entries at concurrency %d, median of %d rounds%n", entries, concurrency,
                    rounds);
            System.out.printf(Locale.ROOT, "%10s %12s %10s %14s %14s %12s %12s%n", "history", "ms/entry", "vs empty",
                    "listActive ms", "update ms", "list() calls", "idle %core");
            double base = median(perEntry.get(0));
            for (int i = 0; i < states.size(); i++) {
                double m = median(perEntry.get(i));
                double idle = idleCpuShare(states.get(i), idleSeconds);
                System.out.printf(Locale.ROOT, "%10d %12.3f %9.2fx %14.3f %14.3f %12d %11.2f%%%n", histories.get(i), m,
                        m / base, median(listing.get(i)), median(updating.get(i)), listCalls.get(i).get(), idle * 100);
            }
        } finally {
            for (Path state : states) {
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

    /** {wall, listActive, update} in ms per entry. */
    private static double[] perEntryMillis(Path state, int entries, int concurrency, AtomicInteger listCalls)
            throws Exception {
        CountingStore store = new CountingStore(new FileQueueStore(state.resolve("queue")), listCalls);
        RunQueue queue = RunQueue.builder().stateDir(state).store(store).build();
        List<RunSpec> specs = new ArrayList<>();
        for (int i = 0; i < entries; i++) {
            specs.add(spec(i));
        }
        List<QueueEntry> fresh = queue.enqueue(specs);
        QueueProcessor.Executor instant = (runId, spec) -> HarnessResult.builder(Outcome.COMPLETED, "m").build();
        double ms;
        try (QueueProcessor p = QueueProcessor.builder(queue, instant).concurrency(concurrency).build()) {
            long t = System.nanoTime();
            QueueProcessor.Summary s = p.runAll();
            long ns = System.nanoTime() - t;
            if (s.done() != entries) {
                throw new IllegalStateException("expected " + entries + " done, got " + s);
            }
            ms = ns / 1e6 / entries;
        }
        double list = store.listActiveNanos.get() / 1e6 / entries;
        double update = store.updateNanos.get() / 1e6 / entries;
        for (QueueEntry e : fresh) {
            store.remove(e.id()); // the history stays what it was for the next round
        }
        return new double[] {ms, list, update};
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

    private static double median(List<Double> xs) {
        List<Double> s = new ArrayList<>(xs);
        Collections.sort(s);
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }

    /** A store that delegates everything and counts the whole-history reads. */
    private static final class CountingStore implements QueueStore {
        private final QueueStore inner;
        private final AtomicInteger listCalls;
        final AtomicLong listActiveNanos = new AtomicLong();
        final AtomicLong updateNanos = new AtomicLong();

        CountingStore(QueueStore inner, AtomicInteger listCalls) {
            this.inner = inner;
            this.listCalls = listCalls;
        }

        @Override
        public void add(QueueEntry entry) {
            inner.add(entry);
        }

        @Override
        public Optional<QueueEntry> get(String id) {
            return inner.get(id);
        }

        @Override
        public List<QueueEntry> list() {
            listCalls.incrementAndGet();
            return inner.list();
        }

        @Override
        public List<QueueEntry> listActive() {
            long t = System.nanoTime();
            try {
                return inner.listActive();
            } finally {
                listActiveNanos.addAndGet(System.nanoTime() - t);
            }
        }

        @Override
        public Optional<QueueEntry> update(String id, UnaryOperator<QueueEntry> change) {
            long t = System.nanoTime();
            try {
                return inner.update(id, change);
            } finally {
                updateNanos.addAndGet(System.nanoTime() - t);
            }
        }

        @Override
        public Optional<QueueEntry> update(String id, UnaryOperator<QueueEntry> change, BooleanSupplier giveUp) {
            long t = System.nanoTime();
            try {
                return inner.update(id, change, giveUp);
            } finally {
                updateNanos.addAndGet(System.nanoTime() - t);
            }
        }

        @Override
        public boolean remove(String id) {
            return inner.remove(id);
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
