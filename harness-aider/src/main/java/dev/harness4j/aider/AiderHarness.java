package dev.harness4j.aider;

import dev.harness4j.api.CompletionMode;
import dev.harness4j.api.Execution;
import dev.harness4j.api.Harness;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessException;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.InstallInfo;
import dev.harness4j.api.Invocation;
import java.util.List;

/** Runs aider headless. Registered for {@link java.util.ServiceLoader}; id {@code aider}. */
public final class AiderHarness implements Harness {
    /** This adapter's id. */
    public static final String ID = "aider";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public CompletionMode completionMode() {
        return CompletionMode.OPAQUE;
    }

    @Override
    public InstallInfo installInfo() {
        return new InstallInfo("aider", List.of("--version"), "pip install aider-chat==0.86.2");
    }

    @Override
    public Invocation prepare(HarnessContext context) {
        throw new HarnessException("aider: prepare is not implemented yet");
    }

    @Override
    public HarnessResult interpret(Execution execution) {
        throw new HarnessException("aider: interpret is not implemented yet");
    }
}
