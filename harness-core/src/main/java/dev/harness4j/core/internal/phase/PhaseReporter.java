package dev.harness4j.core.internal.phase;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.GitChanges;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.PhaseReport;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.Termination;
import dev.harness4j.core.PhaseReports;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives every run its {@link PhaseReport}, by the rules of {@link PhaseReports}: the adapter's,
 * else the agent's report file, else the summarizer's, else git's; {@code committed} always from
 * git; a guard's time stop that raced a finished, committed phase turned into {@code completed}.
 * One per runner; thread-safe.
 *
 * <pre>{@code
 * PhaseReporter.Before before = reporter.prepare(ws.dir());   // before the process starts
 * PhaseReporter.Taken taken = reporter.take(ws.dir(), before); // after it ended, before the changes are captured
 * Settled s = reporter.settle(new Run(ws.dir(), changes, tree, patch, transcript, task, result, termination, taken, redact));
 * }</pre>
 */
public final class PhaseReporter {
    private static final Logger log = LoggerFactory.getLogger(PhaseReporter.class);
    /** How long connecting to the summarizer's endpoint may take: 10 s (within the call's timeout). */
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);

    private final PhaseReports config;
    private final BiFunction<String, String, ResolvedProvider> resolver;
    private final ObjectMapper mapper = new ObjectMapper();
    private final Summarizer summarizer;

    /**
     * @param resolver resolves the summarizer's provider and model the way a run's are (may throw)
     */
    public PhaseReporter(PhaseReports config, BiFunction<String, String, ResolvedProvider> resolver) {
        this.config = Objects.requireNonNull(config, "config");
        this.resolver = Objects.requireNonNull(resolver, "resolver");
        this.summarizer = config.hasSummarizer() ? new Summarizer(mapper,
                CONNECT_TIMEOUT.compareTo(config.summarizerTimeout()) < 0 ? CONNECT_TIMEOUT : config.summarizerTimeout())
                : null;
    }

    /** The configuration. */
    public PhaseReports config() {
        return config;
    }

    /** The prompt a run's adapter sees: with the contract appended when self-reports are on. */
    public String prompt(String prompt) {
        return config.selfReport() ? PhaseReports.appendContract(prompt) : prompt;
    }

    /** Notes what the workspace holds before the run (when self-reports are on); writes nothing, never throws. */
    public Before prepare(Path workspace) {
        return new Before(config.selfReport() ? ReportFile.prepare(workspace) : null);
    }

    /** What a workspace held before its run; opaque to callers. */
    public static final class Before {
        final ReportFile.Before file;

        Before(ReportFile.Before file) {
            this.file = file;
        }

        /** A problem preparing, for the run's notes, or {@code null}. */
        public String note() {
            return file != null && file.note() != null ? "phase report: " + file.note() : null;
        }
    }

    /**
     * Reads the agent's report (when self-reports are on) and removes it from the checkout, so that
     * the changes captured next leave it out; never throws.
     */
    public Taken take(Path workspace, Before before) {
        if (before.file == null) {
            return new Taken(null, List.of(), false);
        }
        List<String> notes = new ArrayList<>();
        ReportFile.Read read = ReportFile.read(mapper, workspace, before.file);
        if (read.problem() != null) {
            notes.add("phase report: " + PhaseReports.REPORT_FILE + " ignored: " + read.problem());
        }
        ReportFile.Removal removal = ReportFile.remove(workspace, before.file);
        if (removal.note() != null) {
            notes.add("phase report: " + removal.note());
        }
        return new Taken(read.claims(), notes, removal.committedByAgent());
    }

    /** The agent's report as read after the run; opaque to callers. */
    public static final class Taken {
        final Claims claims;
        final List<String> notes;
        final boolean removedCommittedReport;

        Taken(Claims claims, List<String> notes, boolean removedCommittedReport) {
            this.claims = claims;
            this.notes = List.copyOf(notes);
            this.removedCommittedReport = removedCommittedReport;
        }
    }

    /**
     * One finished run, its workspace still in place.
     *
     * @param workspace the checkout
     * @param changes what git captured
     * @param tree the captured tree's id (the workspace as it was after the run)
     * @param patch the diff file, or {@code null}
     * @param transcript the transcript file, or {@code null}
     * @param task the caller's task, without what the runner added to the prompt
     * @param result the result so far (the adapter's, with the wire's and the guard's verdicts)
     * @param termination how the process ended
     * @param taken what {@link #take} read
     * @param redact takes the run's secrets out of text sent to the summarizer
     */
    public record Run(Path workspace, GitChanges changes, String tree, Path patch, Path transcript, String task, HarnessResult result,
            Termination termination, Taken taken, UnaryOperator<String> redact) {
        public Run {
            Objects.requireNonNull(workspace, "workspace");
            Objects.requireNonNull(changes, "changes");
            Objects.requireNonNull(tree, "tree");
            Objects.requireNonNull(task, "task");
            Objects.requireNonNull(result, "result");
            Objects.requireNonNull(termination, "termination");
            Objects.requireNonNull(taken, "taken");
            Objects.requireNonNull(redact, "redact");
        }
    }

    /** The result with its report (and maybe a new outcome), and what to note in {@code meta.json}. */
    public record Settled(HarnessResult result, List<String> notes) {
        public Settled {
            Objects.requireNonNull(result, "result");
            notes = List.copyOf(notes);
        }
    }

    /** Picks the run's report; never throws for what the agent, the summarizer or git did. */
    public Settled settle(Run run) {
        List<String> notes = new ArrayList<>(run.taken().notes);
        GitFacts git = GitFacts.of(run.workspace(), run.changes(),
                run.taken().removedCommittedReport ? run.tree() : null);
        Claims claims = run.taken().claims;
        HarnessResult result = raceRule(run, git, claims, notes);
        Outcome outcome = result.outcome();
        PhaseReport adapter = result.phaseReport();
        PhaseReport report;
        if (adapter != null) {
            report = new PhaseReport(adapter.completed() && outcome.isSuccess(), git.committed(),
                    git.commitMessage() != null ? git.commitMessage() : adapter.commitMessage(), adapter.summary(),
                    adapter.nextPhaseNotes(), adapter.blockers(), adapter.source());
            notes.add("phase report: the adapter's own (" + adapter.source().name().toLowerCase(java.util.Locale.ROOT)
                    + "); committed from git");
        } else if (claims != null) {
            report = fromClaims(claims, git, outcome, PhaseReport.Source.SELF_REPORT);
        } else if (config.hasSummarizer()) {
            Summarizer.Answer a = summarize(run, outcome, notes);
            report = (a != null && a.claims() != null ? fromClaims(a.claims(), git, outcome, PhaseReport.Source.SUMMARIZED)
                    : gitDerived(git, outcome)).withSummarizer(a != null ? a.call() : null);
        } else {
            report = gitDerived(git, outcome);
        }
        return new Settled(result.withPhaseReport(report), notes);
    }

    /**
     * The report of a run that ended before its changes were captured (it failed before or while
     * the harness ran): git-derived, neither completed nor committed.
     */
    public static PhaseReport uncaptured() {
        return new PhaseReport(false, false, null, "The run ended before its changes were captured.", null, List.of(),
                PhaseReport.Source.GIT_DERIVED);
    }

    /**
     * A guard's time stop (max runtime, inactivity) that came after the agent reported the phase
     * completed and git shows everything committed: the phase is done, the run counts as
     * completed; the stop stays in the termination and is noted.
     */
    private static HarnessResult raceRule(Run run, GitFacts git, Claims claims, List<String> notes) {
        Termination.Kind kind = run.termination().kind();
        boolean timeStop = kind == Termination.Kind.MAX_RUNTIME || kind == Termination.Kind.INACTIVITY_TIMEOUT;
        HarnessResult r = run.result();
        if (!timeStop || r.outcome() != Outcome.TIMEOUT || claims == null || !claims.completed() || !git.committed()) {
            return r;
        }
        String stop = kind.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-')
                + (run.termination().reason() != null ? ": " + run.termination().reason() : "");
        notes.add("phase report: the agent reported the phase completed and committed it before the guard stopped the"
                + " run (" + stop + "); counted as completed");
        return r.withOutcome(Outcome.COMPLETED, "the phase was finished and committed before the guard's stop (" + stop
                + ")");
    }

    private static PhaseReport fromClaims(Claims c, GitFacts git, Outcome outcome, PhaseReport.Source source) {
        return new PhaseReport(c.completed() && outcome.isSuccess(), git.committed(),
                git.commitMessage() != null ? git.commitMessage() : c.commitMessage(), c.summary(), c.nextPhaseNotes(),
                c.blockers(), source);
    }

    private static PhaseReport gitDerived(GitFacts git, Outcome outcome) {
        return new PhaseReport(outcome == Outcome.COMPLETED, git.committed(), git.commitMessage(), git.summary(), null,
                List.of(), PhaseReport.Source.GIT_DERIVED);
    }

    /** The summarizer's answer (claims or the problem, and its call), or {@code null} when it could not be asked. */
    private Summarizer.Answer summarize(Run run, Outcome outcome, List<String> notes) {
        ResolvedProvider p;
        try {
            p = resolver.apply(config.summarizerProvider(), config.summarizerModel());
        } catch (RuntimeException e) {
            notes.add("phase report: the summarizer's provider could not be resolved: " + e.getMessage());
            return null;
        }
        UnaryOperator<String> redact = run.redact();
        String key = p.secret() != null ? p.secret().reveal() : null;
        String task = run.task(); // the caller's task: the runner's framing is never in it
        Summarizer.Input in = new Summarizer.Input(redact.apply(task.strip()), outcome.wireName(),
                redact.apply(head(run.patch(), Summarizer.MAX_DIFF_CHARS + 1)),
                redact.apply(tail(run.transcript(), Summarizer.MAX_TRANSCRIPT_CHARS)));
        Summarizer.Answer a = summarizer.summarize(p, in, config.summarizerTimeout());
        if (a.claims() != null) {
            return a;
        }
        String problem = key != null ? a.problem().replace(key, "***") : a.problem();
        log.info("the summarizer {}/{} gave no report: {}", p.name(), p.model(), problem);
        notes.add("phase report: the summarizer (" + p.name() + "/" + p.model() + ") gave none, git-derived instead: "
                + problem);
        return a;
    }

    /** The first {@code max} chars of a file (UTF-8), or "" when it cannot be read. */
    private static String head(Path file, int max) {
        if (file == null) {
            return "";
        }
        try (var in = Files.newInputStream(file)) {
            return new String(in.readNBytes(max * 4), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    /** The last {@code max} bytes of a file (UTF-8), or "" when it cannot be read. */
    private static String tail(Path file, int max) {
        if (file == null) {
            return "";
        }
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
            long start = Math.max(0, f.length() - max);
            byte[] b = new byte[(int) (f.length() - start)];
            f.seek(start);
            f.readFully(b);
            return new String(b, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }
}
