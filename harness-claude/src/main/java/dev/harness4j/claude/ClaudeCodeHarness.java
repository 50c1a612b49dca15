package dev.harness4j.claude;

import dev.harness4j.api.CompletionMode;
import dev.harness4j.api.Execution;
import dev.harness4j.api.Harness;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessException;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.InstallInfo;
import dev.harness4j.api.Invocation;
import java.util.List;

/** Runs Claude Code headless. Registered for {@link java.util.ServiceLoader}; id {@code claude-code}. */
public final class ClaudeCodeHarness implements Harness {
    /** This adapter's id. */
    public static final String ID = "claude-code";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public CompletionMode completionMode() {
        return CompletionMode.STRUCTURED;
    }

    @Override
    public InstallInfo installInfo() {
        return new InstallInfo("claude", List.of("--version"), "npm i -g @anthropic-ai/claude-code@2.1.197");
    }

    @Override
    public Invocation prepare(HarnessContext context) {
        throw new HarnessException("claude-code: prepare is not implemented yet");
    }

    @Override
    public HarnessResult interpret(Execution execution) {
        throw new HarnessException("claude-code: interpret is not implemented yet");
    }
}
