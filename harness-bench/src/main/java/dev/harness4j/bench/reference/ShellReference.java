package dev.harness4j.bench.reference;

import dev.harness4j.api.CompletionMode;
import dev.harness4j.api.Execution;
import dev.harness4j.api.Harness;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.InstallInfo;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.support.Outcomes;
import dev.harness4j.api.TokenUsage;
import java.util.List;

/**
 * What both reference harnesses share: {@code sh} as their binary, no provider, and the rule
 * that a clean exit is {@code completed} whatever changed (a reference run has done its job when
 * its script ends well; the verifier judges the workspace), any other end the opaque rule's.
 */
abstract class ShellReference implements Harness {
    private static final InstallInfo SH = new InstallInfo("sh", List.of("-c", "echo sh"),
            "install a POSIX shell (sh) on PATH");

    @Override
    public final int apiVersion() {
        return Harness.API_VERSION;
    }

    @Override
    public final CompletionMode completionMode() {
        return CompletionMode.OPAQUE;
    }

    @Override
    public final InstallInfo installInfo() {
        return SH;
    }

    @Override
    public final boolean needsProvider() {
        return false;
    }

    @Override
    public final HarnessResult interpret(Execution ex) {
        Outcome outcome = ex.exitedCleanly() ? Outcome.COMPLETED : Outcomes.opaque(ex);
        HarnessResult.Builder b = HarnessResult.builder(outcome, ex.context().model())
                .tokens(TokenUsage.ofAdapter(0L, 0L, 0L, 0L)); // it calls no model: zero, known
        if (outcome != Outcome.COMPLETED) {
            String tail = ex.stderrTailText(400).strip();
            b.reason(failure(ex) + (tail.isEmpty() ? "" : ": " + tail));
        } else {
            b.summary(done());
        }
        return b.build();
    }

    /** What a clean run did, in a few words. */
    abstract String done();

    /** What a failed run failed at, naming the exit. */
    abstract String failure(Execution ex);

    static String exit(Execution ex) {
        return ex.exitCode() == null ? "ended " + ex.termination().kind().name().toLowerCase(java.util.Locale.ROOT)
                : "exited " + ex.exitCode();
    }
}
