package dev.harness4j.testkit.trajectory;

import dev.harness4j.api.CompletionMode;
import dev.harness4j.api.Execution;
import dev.harness4j.api.Harness;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.InstallInfo;
import dev.harness4j.api.Invocation;
import java.util.Objects;

/**
 * An adapter that runs another one but tells no trajectory of its own ({@link
 * Harness#trajectory} left at its default), so that harness-core reads the run's steps from the
 * wire: for comparing a CLI's event-derived trajectory with the wire-derived one of the same
 * scenario. Its id is the wrapped one's plus {@value #SUFFIX}.
 *
 * <pre>{@code
 * HarnessRegistry.builder().add(new ClaudeCodeHarness()).add(new WireOnly(new ClaudeCodeHarness())).build();
 * }</pre>
 */
public final class WireOnly implements Harness {
    /** Appended to the wrapped adapter's id. */
    public static final String SUFFIX = "-wire-only";

    private final Harness harness;

    public WireOnly(Harness harness) {
        this.harness = Objects.requireNonNull(harness, "harness");
    }

    @Override
    public String id() {
        return harness.id() + SUFFIX;
    }

    @Override
    public CompletionMode completionMode() {
        return harness.completionMode();
    }

    @Override
    public InstallInfo installInfo() {
        return harness.installInfo();
    }

    @Override
    public Invocation prepare(HarnessContext context) {
        return harness.prepare(context);
    }

    @Override
    public HarnessResult interpret(Execution execution) {
        return harness.interpret(execution);
    }
}
