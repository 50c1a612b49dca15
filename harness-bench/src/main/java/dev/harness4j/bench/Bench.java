package dev.harness4j.bench;

import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.queue.QueueEntry;
import dev.harness4j.core.queue.QueueProcessor;
import dev.harness4j.core.queue.RunLauncher;
import dev.harness4j.core.queue.RunQueue;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * Runs a bench matrix end to end on a {@link HarnessRunner}: prints the planned matrix, queues
 * the combos still to run on the durable queue (combos with a result, or with an entry left in
 * the queue by an earlier bench that crashed, are not queued again), runs the queue (recovering
 * what a crash left, with the live {@link ProgressLine}), then prints the summary table and
 * writes the HTML report. While it runs, another process may bail one of its runs or the whole
 * bench ({@link BailRequests}: what {@code harness4j serve}'s bail buttons do). The runner's
 * state dir, adapters, installations and providers are the
 * bench's; the caller owns the runner and closes it. Immutable once built.
 *
 * <pre>{@code
 * try (HarnessRunner runner = HarnessRunner.builder().stateDir(stateDir).providers(providers).build()) {
 *     Bench bench = Bench.builder(runner).concurrency(2).build();
 *     BenchPlan plan = bench.plan().harnesses("claude-code", "aider").provider("anthropic")
 *             .models("claude-sonnet-4-5").task("readme", "Add a README").baseline(repo).build();
 *     BenchRun done = bench.run(plan);
 *     System.out.println("report: " + done.report());
 * }
 * }</pre>
 */
public final class Bench {
    /** The report's file name in the state dir. */
    public static final String REPORT = "report.html";
    /** The directory of the bench reports in the state dir: {@code reports/<bench id>/index.html}. */
    public static final String REPORT_DIR = "reports";

    private final HarnessRunner runner;
    private final int concurrency;
    private final PrintStream out;
    private final boolean tty;
    private final UnaryOperator<RunLauncher> around;
    @SuppressWarnings("deprecation")
    private final UnaryOperator<QueueProcessor.Executor> decorate; // null: none
    private final BenchBaseline baseline;

    private Bench(Builder b) {
        this.runner = b.runner;
        this.concurrency = b.concurrency;
        this.out = b.out;
        this.tty = b.tty;
        this.around = b.around;
        this.decorate = b.decorate;
        this.baseline = b.baseline;
    }

    /** A bench on this runner (its state dir, adapters, installations, providers and push setting). */
    public static Builder builder(HarnessRunner runner) {
        return new Builder(runner);
    }

    public Path stateDir() {
        return runner.stateDir();
    }

    /** A plan builder validating against this bench's runner. */
    public BenchPlan.Builder plan() {
        return BenchPlan.builder(runner);
    }

    /** Prints the matrix, queues, runs, summarises and reports; blocks until the queue is done. */
    public BenchRun run(BenchPlan plan) throws InterruptedException {
        Objects.requireNonNull(plan, "plan");
        List<ResultRow> baselineRows = baseline == null ? null : baseline.rows(runner.stateDir(), plan.id().orElse(null));
        Path stateDir = runner.stateDir();
        RunQueue queue = RunQueue.builder().stateDir(stateDir).build();
        out.print(plan.matrix(runner.results(), queue));
        List<QueueEntry> queued = plan.enqueue(queue, runner.results());
        int pending = (int) queue.entries().stream().filter(e -> !e.state().isTerminal()).count();
        Verification verification = new Verification(plan::taskByLabel);
        QueueProcessor.Summary processed;
        try (ProgressLine progress = new ProgressLine(pending, out, tty, java.time.Clock.systemUTC())) {
            RunLauncher direct = RunLauncher.of(runner);
            // the bench's own listener (the progress line) and after-harness step (the verifier)
            RunLauncher runs = around.apply(direct.around((spec, runId, listener, after) ->
                    direct.run(spec, runId, progress, verification)));
            try (QueueProcessor processor = processor(queue, runs).concurrency(concurrency).listener(progress).build();
                    BailRequests bails = BailRequests.watch(stateDir, plan.id().orElse(null), runner::bail,
                            () -> processor.stop(QueueProcessor.StopMode.BAIL))) {
                processed = processor.runAll();
            }
        }
        BenchSummary summary = BenchSummary.read(runner.results());
        out.println();
        out.print(SummaryFormat.table(summary));
        List<ResultRow> rows = plan.labels().isEmpty() ? summary.rows()
                : summary.rows().stream().filter(r -> plan.labels().contains(r.task())).toList();
        BenchMetrics metrics = BenchMetrics.of(rows);
        out.println();
        out.println("leaderboard" + plan.id().map(i -> " of bench " + i).orElse("") + " (pass = verifier passed;"
                + " 95% Wilson interval; pass@k unbiased over tasks):");
        out.print(SummaryFormat.leaderboard(metrics));
        out.println();
        out.print(SummaryFormat.taskGrid(metrics));
        BenchComparison comparison = baselineRows == null ? null : BenchComparison.of(baselineRows, rows);
        if (comparison != null) {
            out.println();
            out.println("compared with bench " + baseline.benchId() + ":");
            out.print(SummaryFormat.compare(comparison));
        }
        Path report = HtmlReport.write(summary, stateDir.resolve(REPORT));
        Path index = BenchReport.write(runner.results().resultsDir(), rows, metrics, comparison,
                stateDir.resolve(REPORT_DIR).resolve(plan.id().orElse("default")));
        out.println("report: " + report);
        out.println("bench report: " + index);
        return new BenchRun(queued, processed, summary, report, metrics, comparison);
    }

    @SuppressWarnings("deprecation") // the executor form of decorate(..), kept for one release
    private QueueProcessor.Builder processor(RunQueue queue, RunLauncher runs) {
        return decorate == null ? QueueProcessor.builder(queue, runs)
                : QueueProcessor.builder(queue, decorate.apply(QueueProcessor.Executor.of(runs)));
    }

    /** Builds a {@link Bench}. */
    public static final class Builder {
        private final HarnessRunner runner;
        private int concurrency = 1;
        private PrintStream out = System.out;
        private boolean tty = System.console() != null;
        private UnaryOperator<RunLauncher> around = UnaryOperator.identity();
        @SuppressWarnings("deprecation")
        private UnaryOperator<QueueProcessor.Executor> decorate;
        private BenchBaseline baseline;

        private Builder(HarnessRunner runner) {
            this.runner = Objects.requireNonNull(runner, "runner");
        }

        /** How many runs at once; default 1. */
        public Builder concurrency(int value) {
            if (value < 1) {
                throw new IllegalArgumentException("concurrency must be >= 1, was " + value);
            }
            this.concurrency = value;
            return this;
        }

        /** Where the matrix, progress and summary are printed, and whether it is a terminal. */
        public Builder out(PrintStream value, boolean terminal) {
            this.out = Objects.requireNonNull(value, "out");
            this.tty = terminal;
            return this;
        }

        /**
         * Wraps what runs each entry, e.g. to prepare a scripted model first: {@code value} gets
         * the bench's launcher (with its progress line and verifier) and returns the one the queue
         * runs; {@link RunLauncher#around} keeps {@code bail} working.
         */
        public Builder aroundRuns(UnaryOperator<RunLauncher> value) {
            this.around = Objects.requireNonNull(value, "aroundRuns");
            return this;
        }

        /**
         * Wraps the executor that runs each entry (applied after {@link #aroundRuns}).
         *
         * @deprecated use {@link #aroundRuns(UnaryOperator)}, on the one runner seam
         */
        @Deprecated
        public Builder decorate(UnaryOperator<QueueProcessor.Executor> value) {
            this.decorate = Objects.requireNonNull(value, "decorate");
            return this;
        }

        /**
         * A bench to compare each run with: after the summary the comparison is printed and put into
         * the bench report ({@link BenchRun#comparison()}). Checked when the bench runs, before
         * anything is queued: a baseline without results is refused. Default none.
         */
        public Builder baseline(BenchBaseline value) {
            this.baseline = Objects.requireNonNull(value, "baseline");
            return this;
        }

        public Bench build() {
            return new Bench(this);
        }
    }
}
