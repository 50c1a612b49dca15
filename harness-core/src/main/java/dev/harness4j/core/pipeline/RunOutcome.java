package dev.harness4j.core.pipeline;

import dev.harness4j.api.GitChanges;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Login;
import dev.harness4j.api.Termination;
import dev.harness4j.core.MeterSummary;
import dev.harness4j.core.RunRecord;
import dev.harness4j.core.internal.capture.ResultNames;
import dev.harness4j.core.process.ProcessOutcome;
import dev.harness4j.core.workspace.BranchPush;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What one run has produced so far, as the chain of {@link RunStage}s hands it outwards: the
 * harness stage sets the result, each stage on the way out reads and amends it (the meter's
 * tokens, the phase report, the verifier's section), and the record stage writes it. One per
 * run, used by the run's thread.
 *
 * <p>An {@linkplain #aborted() aborted} outcome is one the chain did not finish: a stage threw
 * (the result is then an {@code error} naming the {@linkplain #stage() stage}), or the run was
 * bailed before its harness started. Stages amend nothing of an aborted outcome; they only clean
 * up what they opened.
 */
public final class RunOutcome {
    private HarnessResult result;
    private boolean aborted;
    private RunRecord.Stage stage;
    private ProcessOutcome process;
    private GitChanges changes;
    private HarnessResult adapterResult;
    private Login login = Login.unknown();
    private BranchPush branch;
    private MeterSummary meter;
    private final List<String> notes = new ArrayList<>();
    private final Map<String, Object> sections = new LinkedHashMap<>();
    private final Map<String, Path> files = new LinkedHashMap<>();

    /** An empty outcome, at the start of a run. */
    public RunOutcome() {}

    /** Returns the run's result so far, or {@code null} before the harness stage set one. */
    public HarnessResult result() {
        return result;
    }

    /**
     * Replaces the run's result.
     *
     * @param value the amended result
     * @return this outcome
     */
    public RunOutcome result(HarnessResult value) {
        this.result = Objects.requireNonNull(value, "result");
        return this;
    }

    /** Returns whether the chain did not finish (a stage failed, or a bail came before the harness started). */
    public boolean aborted() {
        return aborted;
    }

    /**
     * Ends the run here: later stages on the way out amend nothing.
     *
     * @param where the stage of the run it ended in, for {@code meta.json}'s {@code stage}
     * @param value the run's result (an {@code error} or {@code bailed} one)
     */
    public void abort(RunRecord.Stage where, HarnessResult value) {
        this.aborted = true;
        this.stage = where;
        this.result = Objects.requireNonNull(value, "result");
    }

    /** Returns where a failure happened, or {@code null} when the run went through every stage. */
    public RunRecord.Stage stage() {
        return stage;
    }

    /**
     * Sets where the run ended, {@code null} when it went through.
     *
     * @param value the stage, or {@code null}
     * @return this outcome
     */
    public RunOutcome stage(RunRecord.Stage value) {
        this.stage = value;
        return this;
    }

    /** Returns how the harness process ended, or {@code null} when no process was started. */
    public ProcessOutcome process() {
        return process;
    }

    /**
     * Records how the harness process ended.
     *
     * @param value the supervisor's outcome
     * @return this outcome
     */
    public RunOutcome process(ProcessOutcome value) {
        this.process = Objects.requireNonNull(value, "process");
        return this;
    }

    /** Returns the process's termination, or {@code null} when no process was started. */
    public Termination termination() {
        return process != null ? process.termination() : null;
    }

    /** Returns whether the harness process ran (it started, whatever its end). */
    public boolean harnessRan() {
        return process != null && process.termination().kind() != Termination.Kind.START_FAILED;
    }

    /** Returns what git captured, or {@code null} when the changes were not captured. */
    public GitChanges changes() {
        return changes;
    }

    /**
     * Records what git captured.
     *
     * @param value the changes
     * @return this outcome
     */
    public RunOutcome changes(GitChanges value) {
        this.changes = Objects.requireNonNull(value, "changes");
        return this;
    }

    /** Returns the adapter's own result, before any stage amended it, or {@code null}. */
    public HarnessResult adapterResult() {
        return adapterResult;
    }

    /**
     * Records the adapter's own result.
     *
     * @param value what {@code Harness.interpret} returned (the guard's verdict imposed)
     * @return this outcome
     */
    public RunOutcome adapterResult(HarnessResult value) {
        this.adapterResult = Objects.requireNonNull(value, "adapterResult");
        return this;
    }

    /** Returns what the login probe found; {@link Login#unknown()} when none ran. */
    public Login login() {
        return login;
    }

    /**
     * Records the CLI's login.
     *
     * @param value the probe's answer
     * @return this outcome
     */
    public RunOutcome login(Login value) {
        this.login = Objects.requireNonNull(value, "login");
        return this;
    }

    /** Returns the branch the result was pushed to, or {@code null}. */
    public BranchPush branch() {
        return branch;
    }

    /**
     * Records the branch the result was pushed to.
     *
     * @param value the push
     * @return this outcome
     */
    public RunOutcome branch(BranchPush value) {
        this.branch = Objects.requireNonNull(value, "branch");
        return this;
    }

    /** Returns what the meter saw, or {@code null} when the run was not metered. */
    public MeterSummary meter() {
        return meter;
    }

    /**
     * Records what the meter saw.
     *
     * @param value the meter's summary
     * @return this outcome
     */
    public RunOutcome meter(MeterSummary value) {
        this.meter = Objects.requireNonNull(value, "meter");
        return this;
    }

    /**
     * Adds a line to {@code meta.json}'s {@code notes}.
     *
     * @param note the note (secrets are redacted when written)
     * @return this outcome
     */
    public RunOutcome note(String note) {
        notes.add(Objects.requireNonNull(note, "note"));
        return this;
    }

    /** Returns the notes, in the order added. */
    public List<String> notes() {
        return Collections.unmodifiableList(notes);
    }

    /**
     * Adds (or replaces) a top-level section of {@code meta.json}.
     *
     * @param key a key the record does not write itself ({@code sandbox}, {@code verify}, ...)
     * @param value a JSON-able value: {@code null}, a String, Number or Boolean, a Map with String
     *     keys or a List of such values
     * @return this outcome
     * @throws IllegalArgumentException for a key the record writes itself, or a value that is not JSON-able
     */
    public RunOutcome section(String key, Object value) {
        ResultNames.requireSectionKey(key);
        ResultNames.requireJsonable(key, value);
        sections.put(key, value);
        return this;
    }

    /** Returns the sections added, in order. */
    public Map<String, Object> sections() {
        return Collections.unmodifiableMap(sections);
    }

    /**
     * Copies a file (or a directory's files) into the run's result dir when the result is written,
     * secrets redacted.
     *
     * @param name a plain file name (letters, digits, {@code . _ -}), not one of the record's own files
     * @param source the file, read when the result is written
     * @return this outcome
     * @throws IllegalArgumentException for a bad or taken name
     */
    public RunOutcome file(String name, Path source) {
        ResultNames.requireFileName(name);
        files.put(name, Objects.requireNonNull(source, "source"));
        return this;
    }

    /** Returns the extra result files, by name. */
    public Map<String, Path> files() {
        return Collections.unmodifiableMap(files);
    }
}
