package dev.harness4j.api;

import java.util.List;
import java.util.Objects;

/**
 * What one phase of work achieved, for the next phase (or a human) to read.
 *
 * @param completed whether the phase's task is done
 * @param committed whether the work was committed
 * @param commitMessage the commit message, or {@code null}
 * @param summary what was done, or {@code null}
 * @param nextPhaseNotes notes for the next phase, or {@code null}
 * @param blockers what stood in the way (empty when nothing)
 * @param source where this report came from
 */
public record PhaseReport(
        boolean completed, boolean committed, String commitMessage, String summary,
        String nextPhaseNotes, List<String> blockers, Source source) {

    /** Where a phase report came from, in order of preference. */
    public enum Source {
        /** The agent wrote a report file itself. */
        SELF_REPORT,
        /** Summarised from the agent's final message. */
        SUMMARIZED,
        /** Derived from the git changes alone. */
        GIT_DERIVED
    }

    /**
     * Checks the source and copies the blockers.
     *
     * @param completed whether the phase's task is done
     * @param committed whether the work was committed
     * @param commitMessage the commit message, or {@code null}
     * @param summary what was done, or {@code null}
     * @param nextPhaseNotes notes for the next phase, or {@code null}
     * @param blockers what stood in the way
     * @param source where this report came from
     */
    public PhaseReport {
        blockers = List.copyOf(Objects.requireNonNull(blockers, "blockers"));
        Objects.requireNonNull(source, "source");
    }
}
