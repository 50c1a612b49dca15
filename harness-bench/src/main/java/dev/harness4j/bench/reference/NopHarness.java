package dev.harness4j.bench.reference;

import dev.harness4j.api.Execution;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.Invocation;

/**
 * The reference harness that does nothing: it runs {@code sh -c 'exit 0'} in the workspace and
 * ends {@code completed}, so the task's verifier judges the untouched repository. A verifier
 * that passes on it accepts a task nobody solved.
 *
 * <pre>{@code
 * bench.plan().suite(suite).harnesses(ReferenceHarnesses.NOP).build();   // no provider needed
 * }</pre>
 */
public final class NopHarness extends ShellReference {
    @Override
    public String id() {
        return ReferenceHarnesses.NOP;
    }

    @Override
    public Invocation prepare(HarnessContext ctx) {
        return Invocation.builder(ctx.executable(), "-c", "exit 0").workingDir(ctx.workspace()).build();
    }

    @Override
    String done() {
        return "nop: changed nothing";
    }

    @Override
    String failure(Execution ex) {
        return "nop " + exit(ex);
    }
}
