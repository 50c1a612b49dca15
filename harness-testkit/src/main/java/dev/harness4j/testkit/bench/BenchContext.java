package dev.harness4j.testkit.bench;

import dev.harness4j.testkit.GitRepos;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.Installations;
import dev.harness4j.api.ProviderResolver;
import java.util.ArrayList;
import java.util.List;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.RunSpec;
import dev.harness4j.bench.Bench;
import dev.harness4j.bench.BenchMetrics;
import dev.harness4j.bench.BenchPlan;
import dev.harness4j.bench.BenchRun;
import dev.harness4j.bench.TaskSuite;
import dev.harness4j.core.queue.QueueProcessor;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.UnaryOperator;
import dev.harness4j.bench.BenchSummary;
import dev.harness4j.testkit.model.Scenario;
import dev.harness4j.testkit.model.ScriptedModelServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * What {@link BenchExtension} gives one test: a started {@link ScriptedModelServer} (requiring
 * {@link ScriptedProvider#KEY}), a fresh state dir, the {@link ScriptedProvider}, a sample
 * repository, and a {@link HarnessRunner} and {@link Bench} wired to them. Closed after the test
 * (server stopped, runner closed, temp dirs deleted).
 */
public final class BenchContext implements AutoCloseable {
    private final Path root;
    private final ScriptedModelServer server;
    private final ScriptedProvider provider;
    private HarnessRunner runner;
    private Installations installations;
    private final List<ProviderResolver> extraProviders = new ArrayList<>();
    private boolean closed;
    private volatile BenchRun lastSuite;

    /** What a scripted model answers to one task of a suite in one harness. */
    @FunctionalInterface
    public interface SuiteScripts {
        /**
         * The scenario played for one run.
         *
         * @param model the requested model
         * @param taskId the task's id in its suite
         * @param harness the harness id (tool names differ between harnesses)
         * @return the model's answer
         */
        Scenario scenario(String model, String taskId, String harness);
    }

    BenchContext() {
        try {
            this.root = Files.createTempDirectory("harness4j-bench-test-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temp dir for the bench test", e);
        }
        this.server = ScriptedModelServer.start().requireKey(ScriptedProvider.KEY);
        this.provider = new ScriptedProvider(server);
    }

    public ScriptedModelServer server() {
        return server;
    }

    /** The provider resolver of the name {@value ScriptedProvider#NAME}, for runners and plans. */
    public ScriptedProvider provider() {
        return provider;
    }

    /** Scripts a model on the server; returns this. */
    public BenchContext script(String model, Scenario scenario) {
        server.script(model, scenario);
        return this;
    }

    /** The test's state dir (results under {@code results/}). */
    public Path stateDir() {
        return root.resolve("state");
    }

    /** A git repository with a README and one commit on {@code main}, made on first call ({@link GitRepos#withReadme}). */
    public synchronized Path sampleRepo() {
        Path repo = root.resolve("sample-repo");
        return Files.exists(repo.resolve(".git")) ? repo : GitRepos.withReadme(repo);
    }

    /** A runner on the state dir with the scripted provider (built once, closed after the test). */
    public synchronized HarnessRunner runner() {
        if (runner == null) {
            List<ProviderResolver> all = new ArrayList<>(List.of(provider));
            all.addAll(extraProviders);
            HarnessRunner.Builder b = HarnessRunner.builder().stateDir(stateDir())
                    .providers(all.toArray(ProviderResolver[]::new));
            if (installations != null) {
                b.installations(installations);
            }
            runner = b.build();
        }
        return runner;
    }

    /**
     * Where the runner finds the CLIs, e.g. a CLI outside {@code PATH} and the tools cache:
     * {@code bench.installations(Installations.builder().path("my-agent", path).build())}. Call it
     * before the first {@link #runner()}.
     *
     * @param value the installations
     * @return this context
     * @throws IllegalStateException when the runner was already built
     */
    public synchronized BenchContext installations(Installations value) {
        requireNoRunner("installations");
        this.installations = java.util.Objects.requireNonNull(value, "installations");
        return this;
    }

    /**
     * Providers the runner resolves besides the scripted one (which stays first). Call it before
     * the first {@link #runner()}.
     *
     * @param values the resolvers
     * @return this context
     * @throws IllegalStateException when the runner was already built
     */
    public synchronized BenchContext providers(ProviderResolver... values) {
        requireNoRunner("providers");
        extraProviders.addAll(List.of(values));
        return this;
    }

    private void requireNoRunner(String what) {
        if (runner != null) {
            throw new IllegalStateException("set the " + what + " before the first runner() call: the runner is built");
        }
    }

    /** A bench builder on this context's {@link #runner()}, printing plain lines. */
    public Bench.Builder bench() {
        return Bench.builder(runner()).out(System.out, false);
    }

    /**
     * Runs a task suite on the scripted provider, each task verified, and keeps its metrics for
     * {@link #passRate}: before each run the run's model is scripted with {@code scripts}' answer
     * to its task (runs of one model never overlap, two models run at once).
     *
     * <pre>{@code
     * bench.runSuite(suite, List.of("scripted-a", "scripted-b"), (model, task, harness) -> answers(model, task),
     *         plan -> plan.harnesses("claude-code").trials(2));
     * assertThat(bench.passRate("claude-code", "scripted-a")).isGreaterThanOrEqualTo(0.75);
     * }</pre>
     *
     * @param models the scripted models to run
     * @param plan completes the plan (harnesses, trials, ...); the suite, the models and the
     *     provider {@value ScriptedProvider#NAME} are set
     * @throws dev.harness4j.bench.BenchPlanException when the plan is invalid; nothing is queued
     */
    public BenchRun runSuite(TaskSuite suite, java.util.List<String> models, SuiteScripts scripts,
            UnaryOperator<BenchPlan.Builder> plan) throws InterruptedException {
        for (String m : models) { // scripted before the plan is validated; each run scripts its own task
            server.script(m, Scenario.empty());
        }
        Map<String, ReentrantLock> locks = new ConcurrentHashMap<>();
        Bench b = bench().concurrency(2).decorate(inner -> new QueueProcessor.Executor() {
            @Override
            public HarnessResult run(String runId, RunSpec spec) throws Exception {
                ReentrantLock lock = locks.computeIfAbsent(spec.model(), m -> new ReentrantLock());
                lock.lockInterruptibly();
                try {
                    String label = spec.task() == null ? "" : spec.task();
                    server.script(spec.model(), scripts.scenario(spec.model(), label.substring(label.lastIndexOf('/') + 1),
                            spec.harness()));
                    return inner.run(runId, spec);
                } finally {
                    lock.unlock();
                }
            }

            @Override
            public boolean bail(String runId) {
                return inner.bail(runId);
            }
        }).build();
        BenchRun run = b.run(plan.apply(b.plan().suite(suite).provider(ScriptedProvider.NAME)
                .models(models.toArray(String[]::new))).build());
        lastSuite = run;
        return run;
    }

    /** The metrics of the last {@link #runSuite}, else of every result in the state dir. */
    public BenchMetrics metrics() {
        BenchRun last = lastSuite;
        return last != null ? last.metrics() : BenchMetrics.of(summary());
    }

    /**
     * The pass rate of a harness and model in {@link #metrics()}: verified passes over runs.
     *
     * @throws IllegalArgumentException when no run of them is in the metrics
     */
    public double passRate(String harness, String model) {
        return metrics().passRate(harness, model);
    }

    /** The summary of every result in the state dir. */
    public BenchSummary summary() {
        return BenchSummary.read(stateDir());
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        RuntimeException failure = null;
        try {
            if (runner != null) {
                runner.close();
            }
        } catch (RuntimeException e) {
            failure = e;
        }
        try {
            server.close();
        } catch (RuntimeException e) {
            failure = add(failure, e);
        }
        try {
            deleteTree(root);
        } catch (IOException e) {
            failure = add(failure, new UncheckedIOException("cannot delete " + root, e));
        }
        if (failure != null) {
            throw failure;
        }
    }

    private static RuntimeException add(RuntimeException first, RuntimeException next) {
        if (first == null) {
            return next;
        }
        first.addSuppressed(next);
        return first;
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
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
