package dev.harness4j.core.bench;

import dev.harness4j.api.ProviderResolver;
import dev.harness4j.core.HarnessRegistry;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.Installations;
import dev.harness4j.core.queue.QueueEntry;
import dev.harness4j.core.queue.QueueProcessor;
import dev.harness4j.core.queue.RunQueue;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * Runs a bench matrix end to end: prints the planned matrix, queues the combos still to run on
 * the durable queue, runs the queue (recovering what a crash left, with the live {@link
 * ProgressLine}), then prints the summary table and writes the HTML report. Immutable once built.
 *
 * <pre>{@code
 * Bench bench = Bench.builder(stateDir).providers(providers).concurrency(2).build();
 * BenchPlan plan = bench.plan().harnesses("claude-code", "aider").provider("anthropic")
 *         .models("claude-sonnet-4-5").task("readme", "Add a README").baseline(repo).build();
 * Bench.Outcome outcome = bench.run(plan);
 * System.out.println("report: " + outcome.report());
 * }</pre>
 */
public final class Bench {
    /** The report's file name in the state dir. */
    public static final String REPORT = "report.html";

    private final Path stateDir;
    private final HarnessRegistry registry;
    private final Installations installations;
    private final List<ProviderResolver> providers;
    private final int concurrency;
    private final boolean pushBranches;
    private final PrintStream out;
    private final boolean tty;
    private final UnaryOperator<QueueProcessor.Executor> decorate;

    /**
     * What a bench did.
     *
     * @param queued the entries this bench queued (combos with a result were skipped)
     * @param processed what the queue processor did (entries left from earlier benches included)
     * @param summary every result in the state dir
     * @param report the HTML report
     */
    public record Outcome(List<QueueEntry> queued, QueueProcessor.Summary processed, BenchSummary summary, Path report) {
        public Outcome {
            queued = List.copyOf(queued);
        }
    }

    private Bench(Builder b) {
        this.stateDir = b.stateDir;
        this.registry = b.registry != null ? b.registry : HarnessRegistry.fromServices();
        this.installations = b.installations != null ? b.installations : Installations.defaults();
        this.providers = List.copyOf(b.providers);
        this.concurrency = b.concurrency;
        this.pushBranches = b.pushBranches;
        this.out = b.out;
        this.tty = b.tty;
        this.decorate = b.decorate;
    }

    public static Builder builder(Path stateDir) {
        return new Builder(stateDir);
    }

    public Path stateDir() {
        return stateDir;
    }

    /** A plan builder validating against this bench's adapters, installations and providers. */
    public BenchPlan.Builder plan() {
        return BenchPlan.builder(registry, installations, providers);
    }

    /** Prints the matrix, queues, runs, summarises and reports; blocks until the queue is done. */
    public Outcome run(BenchPlan plan) throws InterruptedException {
        Objects.requireNonNull(plan, "plan");
        out.print(plan.matrix(stateDir));
        RunQueue queue = RunQueue.builder().stateDir(stateDir).build();
        List<QueueEntry> queued = plan.enqueue(queue, stateDir);
        int pending = (int) queue.entries().stream().filter(e -> !e.state().isTerminal()).count();
        QueueProcessor.Summary processed;
        try (ProgressLine progress = new ProgressLine(pending, out, tty, java.time.Clock.systemUTC());
                HarnessRunner runner = HarnessRunner.builder().stateDir(stateDir).registry(registry)
                        .installations(installations).providers(providers.toArray(ProviderResolver[]::new))
                        .listener(progress).pushBranches(pushBranches).build();
                QueueProcessor processor = QueueProcessor.builder(queue, decorate.apply(QueueProcessor.Executor.of(runner)))
                        .concurrency(concurrency).listener(progress).build()) {
            processed = processor.runAll();
        }
        BenchSummary summary = BenchSummary.read(stateDir);
        out.println();
        out.print(SummaryFormat.table(summary));
        Path report = HtmlReport.write(summary, stateDir.resolve(REPORT));
        out.println("report: " + report);
        return new Outcome(queued, processed, summary, report);
    }

    /** Builds a {@link Bench}. */
    public static final class Builder {
        private final Path stateDir;
        private HarnessRegistry registry;
        private Installations installations;
        private final List<ProviderResolver> providers = new ArrayList<>();
        private int concurrency = 1;
        private boolean pushBranches;
        private PrintStream out = System.out;
        private boolean tty = System.console() != null;
        private UnaryOperator<QueueProcessor.Executor> decorate = UnaryOperator.identity();

        private Builder(Path stateDir) {
            this.stateDir = Objects.requireNonNull(stateDir, "stateDir").toAbsolutePath();
        }

        public Builder registry(HarnessRegistry value) {
            this.registry = Objects.requireNonNull(value, "registry");
            return this;
        }

        public Builder installations(Installations value) {
            this.installations = Objects.requireNonNull(value, "installations");
            return this;
        }

        public Builder providers(ProviderResolver... values) {
            for (ProviderResolver r : values) {
                providers.add(Objects.requireNonNull(r, "provider resolver"));
            }
            return this;
        }

        public Builder concurrency(int value) {
            if (value < 1) {
                throw new IllegalArgumentException("concurrency must be >= 1, was " + value);
            }
            this.concurrency = value;
            return this;
        }

        /** Push each result to a branch of the baseline's remote (default false). */
        public Builder pushBranches(boolean value) {
            this.pushBranches = value;
            return this;
        }

        /** Where the matrix, progress and summary are printed, and whether it is a terminal. */
        public Builder out(PrintStream value, boolean terminal) {
            this.out = Objects.requireNonNull(value, "out");
            this.tty = terminal;
            return this;
        }

        /** Wraps the executor that runs each entry, e.g. to prepare a scripted model first. */
        public Builder decorate(UnaryOperator<QueueProcessor.Executor> value) {
            this.decorate = Objects.requireNonNull(value, "decorate");
            return this;
        }

        public Bench build() {
            return new Bench(this);
        }
    }
}
