package dev.harness4j.bench;

import dev.harness4j.api.HarnessListener;
import dev.harness4j.bench.reference.ReferenceHarnesses;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.RunRecord;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Checks a suite's verifiers with the reference harnesses before anyone trusts its pass rates:
 * for every task it runs {@code nop} once (the verifier must fail on the untouched repository)
 * and {@code oracle} twice (the verifier must pass on the task's reference solution, both times),
 * each an ordinary run of the runner (workspace, supervision, limits, sandbox, the bench's
 * verifier after the run) that needs no provider and is never metered. The {@link
 * SuiteCheckReport} names every broken task: a verifier that accepts the untouched repository, a
 * reference solution that does not pass, two oracle runs with different verdicts, no verifier; a
 * task without a reference solution is a warning. Immutable once built; the caller owns the runner.
 *
 * <pre>{@code
 * try (HarnessRunner runner = HarnessRunner.builder().stateDir(stateDir).build()) {
 *     SuiteCheckReport report = SuiteCheck.builder(runner).build().check(TaskSuite.load(suiteDir));
 *     System.out.print(report.text());
 *     if (report.broken()) { ... }          // report.findings() name each task and what is wrong
 * }
 * }</pre>
 *
 * <p>The runs' results are kept like any bench's, under the bench id {@code <suite id>-check}
 * (or {@link Builder#id}), labelled as references; a check always runs again.
 */
public final class SuiteCheck {
    /** How many times the oracle runs each task: twice, so that a verdict that changes is seen. */
    public static final int ORACLE_RUNS = 2;
    /** The suffix of the bench id a check's results are kept under: {@value}. */
    public static final String ID_SUFFIX = "-check";

    private static final DateTimeFormatter ID_TIME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");
    private final HarnessRunner runner;
    private final Path baseline;
    private final String id;
    private final java.io.PrintStream out;
    private final SecureRandom random = new SecureRandom();

    private SuiteCheck(Builder b) {
        this.runner = b.runner;
        this.baseline = b.baseline;
        this.id = b.id;
        this.out = b.out;
    }

    /** A check that runs on this runner (its state dir, adapters, installations and sandbox). */
    public static Builder builder(HarnessRunner runner) {
        return new Builder(runner);
    }

    /**
     * Runs {@code nop} and {@code oracle} on every task and judges the verdicts.
     *
     * @throws BenchPlanException when the runs cannot be planned (the reference harnesses are not
     *     in the runner's registry, a task's setup fails, no baseline for a task that needs one)
     * @throws InterruptedException when interrupted between or during runs
     */
    public SuiteCheckReport check(TaskSuite suite) throws InterruptedException {
        Objects.requireNonNull(suite, "suite");
        String benchId = id != null ? id : suite.id() + ID_SUFFIX;
        BenchPlan.Builder b = BenchPlan.builder(runner).id(benchId).harnesses(ReferenceHarnesses.NOP, ReferenceHarnesses.ORACLE)
                .trials(ORACLE_RUNS).force(true);
        suite.tasks().forEach(b::task);
        if (baseline != null) {
            b.baseline(baseline);
        }
        BenchPlan plan = b.build(); // one plan: each task's setup runs once
        List<Combo> nopRuns = plan.combos().stream()
                .filter(c -> c.harness().equals(ReferenceHarnesses.NOP) && c.trial() == 1).toList();
        List<Combo> oracleRuns = plan.combos().stream()
                .filter(c -> c.harness().equals(ReferenceHarnesses.ORACLE) && c.task().solution().isPresent())
                .sorted(java.util.Comparator.comparingInt(Combo::trial)).toList(); // trial 1 of every task first
        Map<String, SuiteCheckReport.Verdict> nops = new LinkedHashMap<>();
        Map<String, List<SuiteCheckReport.Verdict>> oracles = new LinkedHashMap<>();
        for (Combo c : nopRuns) {
            nops.put(c.task().id(), run(plan, c, false));
        }
        for (Combo c : oracleRuns) {
            oracles.computeIfAbsent(c.task().id(), k -> new ArrayList<>()).add(run(plan, c, true));
        }
        List<SuiteCheckReport.TaskCheck> tasks = new ArrayList<>();
        for (BenchTask t : suite.tasks()) {
            tasks.add(new SuiteCheckReport.TaskCheck(t.id(), t.verify().isPresent(), nops.get(t.id()),
                    oracles.getOrDefault(t.id(), List.of())));
        }
        return new SuiteCheckReport(suite.id(), benchId, tasks);
    }

    /**
     * Writes the bench report of a check's runs, its findings first, into {@code
     * <stateDir>/reports/<bench id>} and returns its {@code index.html}.
     */
    public Path writeReport(SuiteCheckReport report) {
        Objects.requireNonNull(report, "report");
        BenchSummary summary = BenchSummary.read(runner.results()).forBench(report.benchId());
        return BenchReport.write(runner.results().resultsDir(), summary.rows(), BenchMetrics.of(summary), null, report,
                runner.stateDir().resolve(Bench.REPORT_DIR).resolve(report.benchId()));
    }

    private SuiteCheckReport.Verdict run(BenchPlan plan, Combo c, boolean numbered) throws InterruptedException {
        byte[] b = new byte[4];
        random.nextBytes(b);
        String runId = ZonedDateTime.now(ZoneOffset.UTC).format(ID_TIME) + "-" + HexFormat.of().formatHex(b);
        RunRecord r;
        try {
            r = runner.run(plan.spec(c), runId, HarnessListener.NONE, new Verification(plan::taskByLabel));
        } catch (IllegalStateException e) {
            if (e.getCause() instanceof InterruptedException || Thread.currentThread().isInterrupted()) {
                throw new InterruptedException("the suite check was interrupted during " + c.harness() + " on "
                        + c.task().id());
            }
            throw e;
        }
        SuiteCheckReport.Verdict v = SuiteCheckReport.Verdict.of(r);
        if (out != null) {
            out.println("  " + c.task().id() + " · " + c.harness() + (numbered ? " #" + c.trial() : "") + ": "
                    + v.describe());
        }
        return v;
    }

    /** Builds a {@link SuiteCheck}. */
    public static final class Builder {
        private final HarnessRunner runner;
        private Path baseline;
        private String id;
        private java.io.PrintStream out;

        private Builder(HarnessRunner runner) {
            this.runner = Objects.requireNonNull(runner, "runner");
        }

        /** The repository of tasks that name none (neither a baseline nor a setup). */
        public Builder baseline(Path repo) {
            this.baseline = Objects.requireNonNull(repo, "baseline").toAbsolutePath();
            return this;
        }

        /** The bench id the check's results are kept under; default {@code <suite id>-check}. */
        public Builder id(String value) {
            Objects.requireNonNull(value, "id");
            if (value.isBlank() || value.contains("/")) {
                throw new IllegalArgumentException("a bench id must be non-blank without '/', was '" + value + "'");
            }
            this.id = value;
            return this;
        }

        /** Where each run's verdict is printed as it ends; default nowhere. */
        public Builder out(java.io.PrintStream value) {
            this.out = Objects.requireNonNull(value, "out");
            return this;
        }

        public SuiteCheck build() {
            return new SuiteCheck(this);
        }
    }
}
