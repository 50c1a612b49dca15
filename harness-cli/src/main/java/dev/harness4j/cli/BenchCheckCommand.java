package dev.harness4j.cli;

import dev.harness4j.api.SandboxNetwork;
import dev.harness4j.bench.SuiteCheck;
import dev.harness4j.bench.SuiteCheckReport;
import dev.harness4j.bench.TaskSuite;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.stages.SandboxStage;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code bench check --suite DIR}: runs the reference harnesses {@code nop} (once) and {@code
 * oracle} (twice) on every task ({@link SuiteCheck}) and names each broken task, and writes the
 * bench report of its runs with the findings; exit 1 when a task is broken, 2 when the suite
 * cannot be read or planned. Needs no provider.
 */
@Command(name = "check", mixinStandardHelpOptions = true,
        description = "Checks a suite's verifiers: nop must fail, the reference solution (oracle, run twice) must pass."
                + " Exit 1 when a task is broken.")
final class BenchCheckCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;
    @Mixin
    Harness4j.StateDirOption state = new Harness4j.StateDirOption();
    @Option(names = "--suite", required = true, description = "a directory of tasks (task.json or Harbor's task.toml each)")
    Path suite;
    @Option(names = "--id", description = "the bench id of the check's results (default: <suite>-check)")
    String id;
    @Option(names = "--repo", description = "the baseline of tasks that name none")
    Path repo;

    @Override
    public Integer call() throws Exception {
        return BenchCommand.plan(spec, () -> {
            PrintWriter out = spec.commandLine().getOut();
            TaskSuite tasks = TaskSuite.load(suite);
            try (HarnessRunner runner = HarnessRunner.builder().stateDir(state.resolve()).build()) {
                out.println(sandboxLine());
                PrintStream ps = new PrintStream(new BenchCommand.WriterStream(out), true, StandardCharsets.UTF_8);
                SuiteCheck.Builder b = SuiteCheck.builder(runner).out(ps);
                if (id != null) {
                    b.id(id);
                }
                if (repo != null) {
                    b.baseline(repo);
                }
                SuiteCheck check = b.build();
                SuiteCheckReport report = check.check(tasks);
                ps.flush();
                out.print(report.text());
                out.println("report: " + check.writeReport(report));
                out.flush();
                return report.broken() ? Harness4j.FAILED : Harness4j.OK;
            }
        });
    }

    /** How the reference runs will be confined here: they call no model, so no meter and no network. */
    static String sandboxLine() {
        try (SandboxStage stage = SandboxStage.builder().build()) {
            return stage.problem(false, SandboxNetwork.METER_ONLY)
                    .map(why -> "sandbox: OFF (" + why + ") — the reference solutions run with your full user rights")
                    .orElse("sandbox: bubblewrap, network: none (the reference harnesses call no model)");
        }
    }
}
