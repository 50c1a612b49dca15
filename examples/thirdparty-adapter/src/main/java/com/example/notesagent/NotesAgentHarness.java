package com.example.notesagent;

import dev.harness4j.api.CompletionMode;
import dev.harness4j.api.Execution;
import dev.harness4j.api.Harness;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.InstallInfo;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.support.Outcomes;
import java.util.List;

/**
 * A tiny "agent" that appends the prompt it is given to {@code NOTES.md} in the workspace,
 * using nothing but {@code sh}. It shows the whole adapter contract: an id, a completion mode,
 * install info, and two pure translations.
 */
public final class NotesAgentHarness implements Harness {
    public static final String ID = "notes-agent";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public int apiVersion() {
        return API_VERSION; // the harness-api contract this adapter was built against
    }

    @Override
    public CompletionMode completionMode() {
        return CompletionMode.OPAQUE;
    }

    @Override
    public InstallInfo installInfo() {
        return new InstallInfo("sh", List.of("-c", "echo sh"), "apt-get install dash");
    }

    @Override
    public Invocation prepare(HarnessContext context) {
        // The prompt travels on stdin, never in argv; the script is a scratch file, outside the diff.
        return Invocation.builder(context.executable(), context.scratchDir().resolve("agent.sh").toString())
                .file("agent.sh", "cat >> NOTES.md\necho 'noted.'\n")
                .workingDir(context.workspace())
                .stdin(context.prompt() + "\n")
                .build();
    }

    @Override
    public HarnessResult interpret(Execution execution) {
        List<String> tail = execution.stdoutTail(1);
        // exit code and git decide; a failure's wording refines it ("429 ... try again in 20s" is rate-limited)
        Outcome outcome = Outcomes.opaque(execution);
        if (!execution.exitedCleanly() && outcome == Outcome.ERROR) {
            outcome = Outcomes.fromText(execution.stderrTailText(8192)).orElse(outcome);
        }
        return HarnessResult.builder(outcome, execution.context().model())
                .retryAt(outcome == Outcome.RATE_LIMITED
                        ? Outcomes.retryAt(execution, execution.stderrTailText(8192)).orElse(null) : null)
                .summary(tail.isEmpty() ? null : tail.get(0))
                .reason(execution.exitedCleanly() ? null : "exit " + execution.exitCode() + ": " + execution.stderrTail(5))
                .build();
    }
}
