package dev.harness4j.cli;

import dev.harness4j.bench.Bench;
import dev.harness4j.bench.BenchBaseline;
import dev.harness4j.bench.BenchMetrics;
import dev.harness4j.bench.BenchPlan;
import dev.harness4j.bench.BenchPlanException;
import dev.harness4j.bench.SummaryFormat;
import dev.harness4j.bench.TaskSuite;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.provider.Providers;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code bench run | resume | check | summary | compare | report}. */
@Command(name = "bench", mixinStandardHelpOptions = true, description = "Runs and reads benches.",
        subcommands = {BenchCommand.Run.class, BenchCommand.Resume.class, BenchCheckCommand.class,
            BenchCommand.Summary.class, BenchCommand.Compare.class, BenchCommand.Report.class})
final class BenchCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** The options of a bench to run. */
    static class PlanOptions {
        @Mixin
        Harness4j.StateDirOption state = new Harness4j.StateDirOption();
        @Option(names = "--suite", required = true, description = "a directory of tasks (task.json or Harbor's task.toml each)")
        Path suite;
        @Option(names = "--id", description = "the bench's id (default: the suite directory's name)")
        String id;
        @Option(names = "--harness", split = ",", required = true, description = "harness ids")
        List<String> harnesses = new ArrayList<>();
        @Option(names = "--provider", split = ",",
                description = "providers from providers.json (not needed when every harness is a reference: nop, oracle)")
        List<String> providers = new ArrayList<>();
        @Option(names = "--model", split = ",", description = "models (default: each provider's default)")
        List<String> models = new ArrayList<>();
        @Option(names = "--trials", defaultValue = "1", description = "runs per task, harness and model (default 1)")
        int trials;
        @Option(names = "--concurrency", defaultValue = "2", description = "runs at once (default 2)")
        int concurrency;
        @Option(names = "--repo", description = "the baseline of tasks that name none")
        Path repo;
        @picocli.CommandLine.Mixin WireStopOptions stops = new WireStopOptions();

        @Option(names = "--baseline", description = "a bench to compare with: printed after the leaderboard and in the report")
        String baseline;
        @Option(names = "--baseline-state-dir", description = "where the --baseline bench's results are (default: --state-dir)")
        Path baselineState;
        Embedding embedding = Embedding.NONE;
        @Mixin
        DbOptions db = new DbOptions();

        int run(PrintWriter out, boolean force) throws InterruptedException {
            Path stateDir = state.resolve();
            try (BenchBackend backend = BenchBackend.pick(db, stateDir, "harness4j-plan")) {
                backend.checkForce(force); // before anything is built or written
                return run(backend, stateDir, out, force);
            }
        }

        private int run(BenchBackend backend, Path stateDir, PrintWriter out, boolean force) throws InterruptedException {
            TaskSuite suite = TaskSuite.load(suite());
            try (HarnessRunner runner = stops.apply(HarnessRunner.builder()).stateDir(stateDir).providers(
                    embedding.providers() != null ? embedding.providers() : Providers.fromStateDir(stateDir)).build()) {
                PrintStream ps = new PrintStream(new WriterStream(out), true, StandardCharsets.UTF_8);
                Bench.Builder b = Bench.builder(runner).concurrency(concurrency).out(ps, System.console() != null)
                        .decorate(embedding.decorate());
                if (baseline != null) {
                    b.baseline(new BenchBaseline(baseline, baselineState));
                }
                Bench bench = b.build();
                BenchPlan.Builder plan = bench.plan().suite(suite).harnesses(harnesses.toArray(String[]::new))
                        .models(models.toArray(String[]::new)).trials(trials).force(force);
                providers.forEach(plan::provider);
                embedding.options().forEach(plan::option);
                if (id != null) {
                    plan.id(id);
                }
                if (repo != null) {
                    plan.baseline(repo);
                }
                int code = backend.run(bench, plan.build(), out);
                ps.flush();
                return code;
            }
        }

        Path suite() {
            return suite;
        }
    }

    @Command(name = "run", mixinStandardHelpOptions = true,
            description = "Runs a suite × harnesses × models × trials; what has a result is skipped unless --force.")
    static final class Run extends PlanOptions implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;
        @Option(names = "--force", description = "run again what already has a result")
        boolean force;

        @Override
        public Integer call() throws Exception {
            return plan(spec, () -> run(spec.commandLine().getOut(), force));
        }
    }

    @Command(name = "resume", mixinStandardHelpOptions = true,
            description = "Runs what a bench has not finished: finished trials are skipped, interrupted ones run once.")
    static final class Resume extends PlanOptions implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            return plan(spec, () -> run(spec.commandLine().getOut(), false));
        }
    }

    interface Body {
        int call() throws Exception;
    }

    /** Runs a plan's body; an invalid plan prints every problem and exits 2. */
    static int plan(CommandLine.Model.CommandSpec spec, Body body) throws Exception {
        try {
            return body.call();
        } catch (BenchPlanException e) {
            spec.commandLine().getErr().println(e.getMessage());
            return Harness4j.BAD_INPUT;
        }
    }

    @Command(name = "summary", mixinStandardHelpOptions = true, description = "Prints the leaderboard and the task grid.")
    static final class Summary implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;
        @Mixin
        Harness4j.StateDirOption state = new Harness4j.StateDirOption();
        @Option(names = "--bench", description = "only this bench's results (default: every result)")
        String bench;
        @Option(names = "--format", defaultValue = "leaderboard",
                description = "leaderboard (default), table, csv or json")
        String format;
        @Mixin
        DbOptions db = new DbOptions();

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            try (BenchBackend backend = BenchBackend.pick(db, state.resolve(), "harness4j-summary")) {
                switch (format) {
                    case "table" -> out.print(SummaryFormat.table(backend.summary(bench)));
                    case "csv" -> out.print(SummaryFormat.csv(backend.summary(bench)));
                    case "json" -> out.println(SummaryFormat.json(backend.summary(bench)));
                    case "leaderboard" -> {
                        BenchMetrics m = backend.metrics(bench);
                        out.print(SummaryFormat.leaderboard(m));
                        out.println();
                        out.print(SummaryFormat.taskGrid(m));
                    }
                    default -> throw new IllegalArgumentException("--format must be leaderboard, table, csv or json, was "
                            + format);
                }
            }
            return Harness4j.OK;
        }
    }

    @Command(name = "compare", mixinStandardHelpOptions = true,
            description = "Compares a bench with a baseline bench (same or another state dir).")
    static final class Compare implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;
        @Mixin
        Harness4j.StateDirOption state = new Harness4j.StateDirOption();
        @Option(names = "--bench", required = true, description = "the bench to compare")
        String bench;
        @Option(names = "--baseline", required = true, description = "the baseline bench's id")
        String baseline;
        @Option(names = "--baseline-state-dir", description = "where the baseline's results are (default: --state-dir)")
        Path baselineState;
        @Mixin
        DbOptions db = new DbOptions();

        @Override
        public Integer call() {
            try (BenchBackend backend = BenchBackend.pick(db, state.resolve(), "harness4j-compare")) {
                spec.commandLine().getOut().print(SummaryFormat.compare(backend.compare(bench, baseline, baselineState)));
            }
            return Harness4j.OK;
        }
    }

    @Command(name = "report", mixinStandardHelpOptions = true,
            description = "Writes a bench's report directory (index.html and one page per run).")
    static final class Report implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;
        @Mixin
        Harness4j.StateDirOption state = new Harness4j.StateDirOption();
        @Option(names = "--bench", description = "only this bench's results (default: every result)")
        String bench;
        @Option(names = "--baseline", description = "a baseline bench to compare with, in the report")
        String baseline;
        @Option(names = "--out", description = "the report directory (default: <state-dir>/reports/<bench>)")
        Path out;
        @Mixin
        DbOptions db = new DbOptions();

        @Override
        public Integer call() throws Exception {
            Path stateDir = state.resolve();
            Path dir = out != null ? out : stateDir.resolve(Bench.REPORT_DIR).resolve(bench != null ? bench : "all");
            try (BenchBackend backend = BenchBackend.pick(db, stateDir, "harness4j-report")) {
                backend.report(bench, baseline, dir, spec.commandLine().getOut());
            }
            return Harness4j.OK;
        }
    }

    /** A PrintWriter as an OutputStream, for the bench's PrintStream. */
    static final class WriterStream extends java.io.OutputStream {
        private final PrintWriter out;
        private final java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();

        WriterStream(PrintWriter out) {
            this.out = out;
        }

        @Override
        public void write(int b) {
            line.write(b);
            if (b == '\n') {
                flush();
            }
        }

        @Override
        public void flush() {
            out.print(line.toString(StandardCharsets.UTF_8));
            out.flush();
            line.reset();
        }
    }
}
