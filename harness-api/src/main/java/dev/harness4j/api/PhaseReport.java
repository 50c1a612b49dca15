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
 * @param summarizer the summarizer's model call when one answered (its tokens are its own, never
 *     the run's), or {@code null} when none was made or none answered
 */
public record PhaseReport(
        boolean completed, boolean committed, String commitMessage, String summary,
        String nextPhaseNotes, List<String> blockers, Source source, SummarizerCall summarizer) {

    /**
     * The summarizer's model call: which model, and the tokens its answer's {@code usage} gave.
     *
     * @param provider the summarizer's provider
     * @param model the model it asked for
     * @param inputTokens input tokens the answer reported, or {@code null} when it reported none
     * @param outputTokens output tokens the answer reported, or {@code null} when it reported none
     */
    public record SummarizerCall(String provider, String model, Long inputTokens, Long outputTokens) {
        /**
         * Checks the names.
         *
         * @param provider the summarizer's provider
         * @param model the model it asked for
         * @param inputTokens input tokens, or {@code null}
         * @param outputTokens output tokens, or {@code null}
         */
        public SummarizerCall {
            Objects.requireNonNull(provider, "provider");
            Objects.requireNonNull(model, "model");
        }
    }

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
     * @param summarizer the summarizer's call, or {@code null}
     */
    public PhaseReport {
        blockers = List.copyOf(Objects.requireNonNull(blockers, "blockers"));
        Objects.requireNonNull(source, "source");
    }

    /**
     * A report with no summarizer call.
     *
     * @param completed whether the phase's task is done
     * @param committed whether the work was committed
     * @param commitMessage the commit message, or {@code null}
     * @param summary what was done, or {@code null}
     * @param nextPhaseNotes notes for the next phase, or {@code null}
     * @param blockers what stood in the way
     * @param source where this report came from
     */
    public PhaseReport(boolean completed, boolean committed, String commitMessage, String summary,
            String nextPhaseNotes, List<String> blockers, Source source) {
        this(completed, committed, commitMessage, summary, nextPhaseNotes, blockers, source, null);
    }

    /**
     * A copy with the summarizer's call.
     *
     * @param call the call, or {@code null}
     * @return the copy
     */
    public PhaseReport withSummarizer(SummarizerCall call) {
        return new PhaseReport(completed, committed, commitMessage, summary, nextPhaseNotes, blockers, source, call);
    }
}
