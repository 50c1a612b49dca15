package dev.harness4j.bench.reference;

import dev.harness4j.api.Execution;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessException;
import dev.harness4j.api.Invocation;

/**
 * The reference harness that runs the task's reference solution: the script in the run option
 * {@value ReferenceHarnesses#SCRIPT_OPTION} (a bench plan sets it from the task's {@code
 * solution}) is written to the run's scratch dir and run in the workspace (with {@code sh}, or with
 * the interpreter its {@code #!} line names, {@code bash} for Harbor's {@code solve.sh}), under
 * the runner's supervision, limits and sandbox like any agent. A clean exit is {@code completed}
 * (the verifier then judges the result); any other exit is {@code error}, naming it. A run
 * without the option is refused before anything starts.
 *
 * <pre>{@code
 * bench.plan().suite(suite).harnesses(ReferenceHarnesses.ORACLE).build(); // tasks need a "solution"
 * }</pre>
 */
public final class OracleHarness extends ShellReference {
    /** Where the script is written, relative to the run's scratch dir. */
    static final String SCRIPT_FILE = "oracle/solution.sh";

    @Override
    public String id() {
        return ReferenceHarnesses.ORACLE;
    }

    @Override
    public Invocation prepare(HarnessContext ctx) {
        String script = ctx.option(ReferenceHarnesses.SCRIPT_OPTION).orElseThrow(() -> new HarnessException(
                "oracle has no reference solution to run in run " + ctx.runId() + ": give the task a \"solution\" in its task.json (a script file, or {\"command\": \"...\"}),"
                        + " or set the run option " + ReferenceHarnesses.SCRIPT_OPTION));
        String file = ctx.scratchDir().resolve(SCRIPT_FILE).toString();
        String first = script.lines().findFirst().orElse("").strip();
        Invocation.Builder b = first.startsWith("#!") && first.length() > 2
                // its interpreter, as its #! line names it (Harbor's solve.sh is bash): sh -c '/bin/bash "$0"' <file>
                ? Invocation.builder(ctx.executable(), "-c", first.substring(2).strip() + " \"$0\"", file)
                : Invocation.builder(ctx.executable(), file);
        return b.file(SCRIPT_FILE, script).workingDir(ctx.workspace()).build();
    }

    @Override
    String done() {
        return "oracle: the reference solution ran";
    }

    @Override
    String failure(Execution ex) {
        return "the reference solution " + exit(ex);
    }
}
