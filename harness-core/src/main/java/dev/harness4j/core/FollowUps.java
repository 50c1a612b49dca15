package dev.harness4j.core;

import dev.harness4j.api.Harness;
import dev.harness4j.api.RunSpec;
import dev.harness4j.core.internal.workspace.KeptWorkspaces;
import dev.harness4j.core.workspace.KeptWorkspace;
import java.time.Instant;

/** The checks before a follow-up run: the harness resumes sessions, and the previous run's workspace is kept. */
final class FollowUps {
    private FollowUps() {}

    /**
     * The kept workspace a follow-up of {@code previousRunId} with {@code spec} continues in.
     *
     * @throws IllegalArgumentException when the harness cannot resume a session, or is not the previous run's
     * @throws IllegalStateException when the previous run's workspace was not kept, was already continued, or expired
     */
    static KeptWorkspace require(HarnessRegistry registry, KeptWorkspaces kept, String previousRunId, RunSpec spec) {
        Harness harness = registry.require(spec.harness());
        if (!harness.supportsFollowUp()) {
            throw new IllegalArgumentException("harness " + harness.id() + " cannot take a follow-up prompt: its adapter "
                    + "does not resume the agent's session (Harness.supportsFollowUp() is false); start a new run instead");
        }
        KeptWorkspace k = kept.find(previousRunId).orElseThrow(() -> notKept(previousRunId));
        if (k.expired(Instant.now())) {
            throw new IllegalStateException("the kept workspace of run " + previousRunId + " expired at " + k.keptUntil()
                    + "; keep workspaces longer with keepWorkspace(Duration), or start a new run");
        }
        if (!k.harness().equals(harness.id())) {
            throw new IllegalArgumentException("run " + previousRunId + " ran harness " + k.harness()
                    + "; a follow-up continues the same agent's session, not " + harness.id());
        }
        return k;
    }

    /** The refusal of a follow-up of a run without a kept workspace. */
    static IllegalStateException notKept(String previousRunId) {
        return new IllegalStateException("run " + previousRunId
                + " has no kept workspace to follow up in: it was not kept (build the runner with keepWorkspace(Duration) "
                + "before that run; only cloned workspaces of harnesses that report a session are kept), it was already "
                + "continued by a follow-up (follow up on the latest run), or it expired and was swept");
    }
}
