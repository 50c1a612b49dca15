package dev.harness4j.core;

import dev.harness4j.api.GitChanges;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Login;
import dev.harness4j.api.RunSpec;
import dev.harness4j.api.Termination;
import dev.harness4j.core.workspace.Baseline;
import dev.harness4j.core.workspace.BranchPush;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.Objects;

/**
 * Everything one run produced: {@code meta.json} in Java form, plus where the result is on disk.
 * Immutable; built by the runner with {@link #builder}, so that fields can be added without
 * breaking callers. A value documented "or {@code null}" is absent when it is {@code null}.
 */
public final class RunRecord {
    /** The stages of a run, for saying where a failure happened. */
    public enum Stage {
        RESOLVE, WORKSPACE, PREPARE, RUN, CAPTURE;

        /** The lower-case name used in {@code meta.json}. */
        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }
    private final String runId;
    private final RunSpec spec;
    private final String providerName;
    private final String resolvedModel;
    private final Baseline baseline;
    private final String headAfter;
    private final HarnessResult result;
    private final Stage stage;
    private final Integer exitCode;
    private final Termination termination;
    private final Instant startedAt;
    private final Instant finishedAt;
    private final GitChanges changes;
    private final Login login;
    private final BranchPush branch;
    private final List<String> notes;
    private final Path resultDir;
    private final MeterSummary meter;
    private final HarnessResult adapterResult;
    private final Map<String, Object> sections;
    private final Map<String, Duration> stageTimes;

    private RunRecord(Builder b) {
        this.runId = Objects.requireNonNull(b.runId, "runId");
        this.spec = Objects.requireNonNull(b.spec, "spec");
        this.providerName = Objects.requireNonNull(b.providerName, "providerName");
        this.resolvedModel = Objects.requireNonNull(b.resolvedModel, "resolvedModel");
        this.baseline = Objects.requireNonNull(b.baseline, "baseline");
        this.headAfter = b.headAfter;
        this.result = Objects.requireNonNull(b.result, "result");
        this.stage = b.stage;
        this.exitCode = b.exitCode;
        this.termination = b.termination;
        this.startedAt = Objects.requireNonNull(b.startedAt, "startedAt");
        this.finishedAt = Objects.requireNonNull(b.finishedAt, "finishedAt");
        this.changes = b.changes;
        this.login = Objects.requireNonNull(b.login, "login");
        this.branch = b.branch;
        this.notes = List.copyOf(Objects.requireNonNull(b.notes, "notes"));
        this.resultDir = Objects.requireNonNull(b.resultDir, "resultDir");
        this.meter = b.meter;
        this.adapterResult = b.adapterResult;
        this.sections = Collections.unmodifiableMap(new LinkedHashMap<>(b.sections));
        this.stageTimes = Collections.unmodifiableMap(new LinkedHashMap<>(b.stageTimes));
    }

    /** A builder for a run's record; every value not documented "or {@code null}" is required. */
    public static Builder builder(String runId, RunSpec spec) {
        return new Builder(runId, spec);
    }

    /** A builder holding this record's values, to derive a variant. */
    public Builder toBuilder() {
        Builder b = new Builder(runId, spec);
        b.providerName = providerName;
        b.resolvedModel = resolvedModel;
        b.baseline = baseline;
        b.headAfter = headAfter;
        b.result = result;
        b.stage = stage;
        b.exitCode = exitCode;
        b.termination = termination;
        b.startedAt = startedAt;
        b.finishedAt = finishedAt;
        b.changes = changes;
        b.login = login;
        b.branch = branch;
        b.notes = notes;
        b.resultDir = resultDir;
        b.meter = meter;
        b.adapterResult = adapterResult;
        b.sections.putAll(sections);
        b.stageTimes.putAll(stageTimes);
        return b;
    }

    /** Returns the run's unique id. */
    public String runId() {
        return runId;
    }

    /** Returns what was asked for. */
    public RunSpec spec() {
        return spec;
    }

    /** Returns the resolved provider's name. */
    public String providerName() {
        return providerName;
    }

    /** Returns the model the harness was asked to use (requested, else the provider's default). */
    public String resolvedModel() {
        return resolvedModel;
    }

    /** Returns the baseline repository, ref and base commit. */
    public Baseline baseline() {
        return baseline;
    }

    /** Returns the workspace's HEAD after the run, or {@code null} when it was not read. */
    public String headAfter() {
        return headAfter;
    }

    /** Returns the outcome, tokens, cost, served model, summary. */
    public HarnessResult result() {
        return result;
    }

    /** Returns where a failure happened, or {@code null} when the run went through every stage. */
    public Stage stage() {
        return stage;
    }

    /** Returns the harness's exit code, or {@code null} (not started, killed). */
    public Integer exitCode() {
        return exitCode;
    }

    /** Returns why the process ended, or {@code null} when no process was started. */
    public Termination termination() {
        return termination;
    }

    /** Returns when the run started. */
    public Instant startedAt() {
        return startedAt;
    }

    /** Returns when the result was complete. */
    public Instant finishedAt() {
        return finishedAt;
    }

    /** Returns what changed in the workspace, or {@code null} when it was not read. */
    public GitChanges changes() {
        return changes;
    }

    /** Returns what the CLI said about its login. */
    public Login login() {
        return login;
    }

    /** Returns the push of the result to the baseline's remote, or {@code null} when no push was asked for or there was no remote. */
    public BranchPush branch() {
        return branch;
    }

    /** Returns remarks on the run: that the baseline was dirty, what the capture left out; never secret. */
    public List<String> notes() {
        return notes;
    }

    /** Returns the run's own result directory, {@code results/<task>/<harness>__<provider>__<model>/<runId>}. */
    public Path resultDir() {
        return resultDir;
    }

    /** Returns what the metering proxy saw of the run's model traffic, or {@code null} when metering was off or no process ran. */
    public MeterSummary meter() {
        return meter;
    }

    /**
     * Returns the result as the adapter read it from the CLI's output (the guard's verdict
     * imposed), before the wire's figures replaced its tokens, cost, served model or error class;
     * or {@code null} when the adapter never interpreted a run.
     */
    public HarnessResult adapterResult() {
        return adapterResult;
    }

    /**
     * Returns the sections the runner ({@code sandbox}: the setting, what ran, its network or why
     * it ran unconfined) and an {@link AfterHarness} step (a bench's {@code verify}, say) added to
     * {@code meta.json}, by key, in the order added; empty when none.
     */
    public Map<String, Object> sections() {
        return sections;
    }

    /**
     * Returns how long each stage of the run took outside the stages it wraps, by stage name,
     * outermost first ({@code preflight} is the runner's own checks before the first stage); empty
     * for a record read back from disk. A measurement, not part of {@code meta.json} nor of
     * {@link #equals}.
     */
    public Map<String, Duration> stageTimes() {
        return stageTimes;
    }

    /** Wall time of the whole run. */
    public Duration duration() {
        return Duration.between(startedAt, finishedAt);
    }

    /** {@code meta.json} in the result directory. */
    public Path metaFile() {
        return resultDir.resolve("meta.json");
    }

    public RunRecord withResultDir(Path value) {
        return toBuilder().resultDir(value).build();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RunRecord r && runId.equals(r.runId) && spec.equals(r.spec)
                && providerName.equals(r.providerName) && resolvedModel.equals(r.resolvedModel)
                && baseline.equals(r.baseline) && Objects.equals(headAfter, r.headAfter) && result.equals(r.result)
                && stage == r.stage && Objects.equals(exitCode, r.exitCode) && Objects.equals(termination, r.termination)
                && startedAt.equals(r.startedAt) && finishedAt.equals(r.finishedAt) && Objects.equals(changes, r.changes)
                && login.equals(r.login) && Objects.equals(branch, r.branch) && notes.equals(r.notes)
                && resultDir.equals(r.resultDir) && Objects.equals(meter, r.meter)
                && Objects.equals(adapterResult, r.adapterResult) && sections.equals(r.sections);
    }

    @Override
    public int hashCode() {
        return Objects.hash(runId, spec, providerName, resolvedModel, baseline, headAfter, result, stage, exitCode,
                termination, startedAt, finishedAt, changes, login, branch, notes, resultDir, meter, adapterResult,
                sections);
    }

    @Override
    public String toString() {
        return "RunRecord[runId=" + runId + ", harness=" + spec.harness() + ", provider=" + providerName + ", model="
                + resolvedModel + ", outcome=" + result.outcome().wireName() + ", stage=" + stage + ", resultDir="
                + resultDir + "]";
    }

    /** Builds a {@link RunRecord}. Not thread-safe. */
    public static final class Builder {
        private final String runId;
        private final RunSpec spec;
        private String providerName;
        private String resolvedModel;
        private Baseline baseline;
        private String headAfter;
        private HarnessResult result;
        private Stage stage;
        private Integer exitCode;
        private Termination termination;
        private Instant startedAt;
        private Instant finishedAt;
        private GitChanges changes;
        private Login login = Login.unknown();
        private BranchPush branch;
        private List<String> notes = List.of();
        private Path resultDir;
        private MeterSummary meter;
        private HarnessResult adapterResult;
        private final Map<String, Object> sections = new LinkedHashMap<>();
        private final Map<String, Duration> stageTimes = new LinkedHashMap<>();

        private Builder(String runId, RunSpec spec) {
            this.runId = Objects.requireNonNull(runId, "runId");
            this.spec = Objects.requireNonNull(spec, "spec");
        }

        /** Sets the resolved provider's name. */
        public Builder providerName(String value) {
            this.providerName = value;
            return this;
        }

        /** Sets the model the harness was asked to use (requested, else the provider's default). */
        public Builder resolvedModel(String value) {
            this.resolvedModel = value;
            return this;
        }

        /** Sets the baseline repository, ref and base commit. */
        public Builder baseline(Baseline value) {
            this.baseline = value;
            return this;
        }

        /** Sets the workspace's HEAD after the run, or {@code null} when it was not read. */
        public Builder headAfter(String value) {
            this.headAfter = value;
            return this;
        }

        /** Sets the outcome, tokens, cost, served model, summary. */
        public Builder result(HarnessResult value) {
            this.result = value;
            return this;
        }

        /** Sets where a failure happened, or {@code null} when the run went through every stage. */
        public Builder stage(Stage value) {
            this.stage = value;
            return this;
        }

        /** Sets the harness's exit code, or {@code null} (not started, killed). */
        public Builder exitCode(Integer value) {
            this.exitCode = value;
            return this;
        }

        /** Sets why the process ended, or {@code null} when no process was started. */
        public Builder termination(Termination value) {
            this.termination = value;
            return this;
        }

        /** Sets when the run started. */
        public Builder startedAt(Instant value) {
            this.startedAt = value;
            return this;
        }

        /** Sets when the result was complete. */
        public Builder finishedAt(Instant value) {
            this.finishedAt = value;
            return this;
        }

        /** Sets what changed in the workspace, or {@code null} when it was not read. */
        public Builder changes(GitChanges value) {
            this.changes = value;
            return this;
        }

        /** Sets what the CLI said about its login. Default: {@link Login#unknown()}. */
        public Builder login(Login value) {
            this.login = value;
            return this;
        }

        /** Sets the push of the result to the baseline's remote, or {@code null} when no push was asked for or there was no remote. */
        public Builder branch(BranchPush value) {
            this.branch = value;
            return this;
        }

        /** Sets remarks on the run: that the baseline was dirty, what the capture left out; never secret. Default: none. */
        public Builder notes(List<String> value) {
            this.notes = value;
            return this;
        }

        /** Sets the run's own result directory, {@code results/<task>/<harness>__<provider>__<model>/<runId>}. */
        public Builder resultDir(Path value) {
            this.resultDir = value;
            return this;
        }

        /** Sets what the metering proxy saw, or {@code null} when metering was off or no process ran. */
        public Builder meter(MeterSummary value) {
            this.meter = value;
            return this;
        }

        /** Sets the result as the adapter read it, before the wire's figures, or {@code null}. */
        public Builder adapterResult(HarnessResult value) {
            this.adapterResult = value;
            return this;
        }

        /**
         * Adds a section to {@code meta.json} (see {@link AfterHarness.Context#putMeta}); a key
         * given again replaces the earlier value.
         *
         * @param key the section's top-level key
         * @param value a JSON-able value, or {@code null}
         */
        public Builder section(String key, Object value) {
            sections.put(Objects.requireNonNull(key, "key"), value);
            return this;
        }

        /**
         * Builds the record.
         *
         * @throws NullPointerException naming the first required value that is missing
         */
        /**
         * Sets {@link RunRecord#stageTimes()}.
         *
         * @param value the time each stage took, by name
         * @return this builder
         */
        public Builder stageTimes(Map<String, Duration> value) {
            stageTimes.clear();
            stageTimes.putAll(value);
            return this;
        }

        public RunRecord build() {
            return new RunRecord(this);
        }
    }
}
