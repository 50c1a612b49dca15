package dev.harness4j.core.workspace;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Objects;

/**
 * A finished run's workspace and scratch dir kept for a follow-up prompt ({@code
 * HarnessRunner.Builder.keepWorkspace}): its checkout holds the agent's changes committed as one
 * commit, and its scratch dir the agent's own session, until {@link #keptUntil()}, when the state
 * dir's sweep removes it. Read from {@code runs/<dir>/kept.json}.
 *
 * @param runId the run whose end the workspace holds
 * @param sessionId the agent's session, which a follow-up continues
 * @param harness the run's harness id
 * @param provider the run's provider name
 * @param model the run's model
 * @param baseline the repository the first run of the chain was isolated from
 * @param ref the ref of that baseline
 * @param commit the commit holding the run's end state (the follow-up's diff starts there)
 * @param keptUntil when the sweep may remove it
 * @param runDir the kept directory, {@code <stateDir>/runs/<id of the chain's first run>}
 */
public record KeptWorkspace(String runId, String sessionId, String harness, String provider, String model,
        Path baseline, String ref, String commit, Instant keptUntil, Path runDir) {

    /** Checks that every part is there. */
    public KeptWorkspace {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(harness, "harness");
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(baseline, "baseline");
        Objects.requireNonNull(ref, "ref");
        Objects.requireNonNull(commit, "commit");
        Objects.requireNonNull(keptUntil, "keptUntil");
        Objects.requireNonNull(runDir, "runDir");
    }

    /**
     * Whether the sweep may remove it.
     *
     * @param now the time to judge by
     * @return true once {@link #keptUntil()} has passed
     */
    public boolean expired(Instant now) {
        return now.isAfter(keptUntil);
    }
}
