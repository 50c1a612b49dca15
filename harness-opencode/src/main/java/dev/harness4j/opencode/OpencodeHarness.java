package dev.harness4j.opencode;

import dev.harness4j.api.CompletionMode;
import dev.harness4j.api.Execution;
import dev.harness4j.api.Harness;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessException;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.InstallInfo;
import dev.harness4j.api.Invocation;
import java.util.List;

/** Runs opencode headless. Registered for {@link java.util.ServiceLoader}; id {@code opencode}. */
public final class OpencodeHarness implements Harness {
    /** This adapter's id. */
    public static final String ID = "opencode";

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
        return new InstallInfo("opencode", List.of("--version"), "npm i -g opencode-ai@1.18.33");
    }

    @Override
    public Invocation prepare(HarnessContext context) {
        throw new HarnessException("opencode: prepare is not implemented yet");
    }

    @Override
    public HarnessResult interpret(Execution execution) {
        throw new HarnessException("opencode: interpret is not implemented yet");
    }
}
