package dev.harness4j.core;

import dev.harness4j.core.internal.util.Checks;
import java.time.Duration;
import java.util.Objects;

/**
 * How a runner gets each run's {@link dev.harness4j.api.PhaseReport} (in {@code meta.json}'s
 * {@code phase_report} and {@code RunRecord.result().phaseReport()}), tried in this order, the
 * source recorded in the report:
 * <ol>
 *   <li>an adapter that maps its own result envelope to a report (kept, {@code committed} from git);
 *   <li>the <b>self-report</b>: with {@link #selfReport()} on, the {@link #CONTRACT} is appended to
 *       every prompt, asking the agent to write {@value #REPORT_FILE} before it stops; a valid file is
 *       read after the run, a malformed one is ignored with a note. The file is then removed from the
 *       checkout before the changes are captured, so it is in neither the diff, the diffstat nor any
 *       commit the library makes (one the agent committed itself stays in its commits, with a note,
 *       and is removed from the captured changes all the same);
 *   <li>the <b>summarizer</b>, when one is configured: a separate model call ({@link
 *       #summarizerProvider()}, {@link #summarizerModel()}, resolved through the runner's providers,
 *       not metered) reads the diff and the tail of the transcript and answers the report as JSON;
 *       any failure (HTTP error, timeout, garbage) falls through with a note, never failing the run;
 *   <li><b>git-derived</b>, always possible: committed or not, the last commit message, the files
 *       changed; completed when the run's outcome is {@code completed}.
 * </ol>
 * Whatever the source, {@code committed} comes from git (HEAD moved and nothing left uncommitted),
 * never from what the agent claims. A run stopped by the guard for time (max runtime, inactivity)
 * after the agent wrote a completed self-report and committed everything counts as {@code
 * completed}; the stop stays in {@code termination} and a note.
 *
 * <pre>{@code
 * HarnessRunner runner = HarnessRunner.builder()
 *         .phaseReports(PhaseReports.DEFAULT.withSummarizer("anthropic", "claude-haiku-4-5"))
 *         .build();
 * }</pre>
 *
 * @param selfReport whether the {@link #CONTRACT} is appended to every prompt and the report file read
 * @param summarizerProvider the provider of the summarizer model, or {@code null} for no summarizer
 * @param summarizerModel the summarizer model, or {@code null} (then the provider's default)
 * @param summarizerTimeout how long the summarizer's call may take in all
 */
public record PhaseReports(boolean selfReport, String summarizerProvider, String summarizerModel,
        Duration summarizerTimeout) {

    /** Where the agent writes its report, relative to the workspace: {@value}. */
    public static final String REPORT_FILE = ".harness4j/report.json";

    /** How long the summarizer's model call may take: 60 s. */
    public static final Duration DEFAULT_SUMMARIZER_TIMEOUT = Duration.ofSeconds(60);

    /** The default: the self-report contract on, no summarizer, git-derived otherwise. */
    public static final PhaseReports DEFAULT = new PhaseReports(true, null, null, DEFAULT_SUMMARIZER_TIMEOUT);

    /**
     * No prompt text added and no model call: every report is git-derived (or the adapter's). For
     * users who embed the runner for a diff and want the prompt exactly as given.
     */
    public static final PhaseReports GIT_ONLY = new PhaseReports(false, null, null, DEFAULT_SUMMARIZER_TIMEOUT);

    /** The text appended to every prompt when {@link #selfReport()} is on; fixed, kept in this one place. */
    public static final String CONTRACT = """

            Before you stop, write a short report of this step as one JSON object to the file .harness4j/report.json \
            (create the directory; never commit or git-add that file; write it last, after any commit), with exactly \
            these keys:
            {"completed": true if the task is fully done else false, "committed": true if you committed your work \
            with git else false, "commit_message": "your last commit's message, or null", "summary": "what you did, \
            in a few sentences", "next_phase_notes": "what the next step should know, or null", "blockers": \
            ["what stood in your way; empty when nothing"]}
            """;

    /**
     * Checks the summarizer settings.
     *
     * @throws IllegalArgumentException for a blank provider or model, or a model without a provider
     */
    public PhaseReports {
        Checks.positive(summarizerTimeout, "summarizerTimeout");
        if (summarizerProvider != null && summarizerProvider.isBlank()) {
            throw new IllegalArgumentException("summarizerProvider must not be blank; use null for no summarizer");
        }
        if (summarizerModel != null && (summarizerModel.isBlank() || summarizerProvider == null)) {
            throw new IllegalArgumentException("summarizerModel needs a summarizerProvider and must not be blank, was '"
                    + summarizerModel + "'");
        }
    }

    /** A copy with the self-report contract on or off. */
    public PhaseReports withSelfReport(boolean value) {
        return new PhaseReports(value, summarizerProvider, summarizerModel, summarizerTimeout);
    }

    /**
     * A copy with a summarizer: a provider known to the runner's resolvers, and a model ({@code
     * null} for the provider's default). Its key is sent only to that provider's endpoint.
     */
    public PhaseReports withSummarizer(String provider, String model) {
        return new PhaseReports(selfReport, Objects.requireNonNull(provider, "provider"), model, summarizerTimeout);
    }

    /** A copy without a summarizer. */
    public PhaseReports withoutSummarizer() {
        return new PhaseReports(selfReport, null, null, summarizerTimeout);
    }

    /** A copy with another summarizer timeout; default {@link #DEFAULT_SUMMARIZER_TIMEOUT}. */
    public PhaseReports withSummarizerTimeout(Duration value) {
        return new PhaseReports(selfReport, summarizerProvider, summarizerModel, value);
    }

    /** Whether a summarizer is configured. */
    public boolean hasSummarizer() {
        return summarizerProvider != null;
    }

    /** The prompt with the {@link #CONTRACT} after it; a prompt that already ends with it is returned as is. */
    public static String appendContract(String prompt) {
        Objects.requireNonNull(prompt, "prompt");
        return hasContract(prompt) ? prompt : prompt + CONTRACT;
    }

    /** Whether the prompt ends with the {@link #CONTRACT}. */
    public static boolean hasContract(String prompt) {
        return prompt.endsWith(CONTRACT);
    }

    /** The prompt without a trailing {@link #CONTRACT} (for adapters that parse the task itself). */
    public static String withoutContract(String prompt) {
        return hasContract(prompt) ? prompt.substring(0, prompt.length() - CONTRACT.length()) : prompt;
    }
}
