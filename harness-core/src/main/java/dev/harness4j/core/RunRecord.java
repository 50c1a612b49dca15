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

    private final RunRecordValues values;

    private RunRecord(Builder b) {
        this.values = b.values.frozen();
    }

    /** A builder for a run's record; every value not documented "or {@code null}" is required. */
    public static Builder builder(String runId, RunSpec spec) {
        return new Builder(runId, spec);
    }

    /** A builder holding this record's values, to derive a variant. */
    public Builder toBuilder() {
        return new Builder(values.copy());
    }

    /** Returns the run's unique id. */
    public String runId() {
        return values.runId;
    }

    /** Returns what was asked for. */
    public RunSpec spec() {
        return values.spec;
    }

    /** Returns the resolved provider's name. */
    public String providerName() {
        return values.providerName;
    }

    /** Returns the model the harness was asked to use (requested, else the provider's default). */
    public String resolvedModel() {
        return values.resolvedModel;
    }

    /** Returns the baseline repository, ref and base commit. */
    public Baseline baseline() {
        return values.baseline;
    }

    /** Returns the workspace's HEAD after the run, or {@code null} when it was not read. */
    public String headAfter() {
        return values.headAfter;
    }

    /** Returns the outcome, tokens, cost, served model, summary. */
    public HarnessResult result() {
        return values.result;
    }

    /** Returns where a failure happened, or {@code null} when the run went through every stage. */
    public Stage stage() {
        return values.stage;
    }

    /** Returns the harness's exit code, or {@code null} (not started, killed). */
    public Integer exitCode() {
        return values.exitCode;
    }

    /** Returns why the process ended, or {@code null} when no process was started. */
    public Termination termination() {
        return values.termination;
    }

    /** Returns when the run started. */
    public Instant startedAt() {
        return values.startedAt;
    }

    /** Returns when the result was complete. */
    public Instant finishedAt() {
        return values.finishedAt;
    }

    /** Returns what changed in the workspace, or {@code null} when it was not read. */
    public GitChanges changes() {
        return values.changes;
    }

    /** Returns what the CLI said about its login. */
    public Login login() {
        return values.login;
    }

    /** Returns the push of the result to the baseline's remote, or {@code null} when no push was asked for or there was no remote. */
    public BranchPush branch() {
        return values.branch;
    }

    /** Returns remarks on the run: that the baseline was dirty, what the capture left out; never secret. */
    public List<String> notes() {
        return values.notes;
    }

    /** Returns the run's own result directory, {@code results/<task>/<harness>__<provider>__<model>/<runId>}. */
    public Path resultDir() {
        return values.resultDir;
    }

    /** Returns what the metering proxy saw of the run's model traffic, or {@code null} when metering was off or no process ran. */
    public MeterSummary meter() {
        return values.meter;
    }

    /**
     * Returns the result as the adapter read it from the CLI's output (the guard's verdict
     * imposed), before the wire's figures replaced its tokens, cost, served model or error class;
     * or {@code null} when the adapter never interpreted a run.
     */
    public HarnessResult adapterResult() {
        return values.adapterResult;
    }

    /**
     * Returns the sections the runner ({@code sandbox}: the setting, what ran, its network or why
     * it ran unconfined) and an {@link AfterHarness} step (a bench's {@code verify}, say) added to
     * {@code meta.json}, by key, in the order added; empty when none.
     */
    public Map<String, Object> sections() {
        return values.sections;
    }

    /**
     * Returns how long each stage of the run took outside the stages it wraps, by stage name,
     * outermost first ({@code preflight} is the runner's own checks before the first stage); empty
     * for a record read back from disk. A measurement, not part of {@code meta.json} nor of
     * {@link #equals}.
     */
    public Map<String, Duration> stageTimes() {
        return values.stageTimes;
    }

    /** Wall time of the whole run. */
    public Duration duration() {
        return Duration.between(values.startedAt, values.finishedAt);
    }

    /** {@code meta.json} in the result directory. */
    public Path metaFile() {
        return values.resultDir.resolve("meta.json");
    }

    public RunRecord withResultDir(Path value) {
        return toBuilder().resultDir(value).build();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RunRecord r && values.sameAs(r.values);
    }

    @Override
    public int hashCode() {
        return values.hash();
    }

    @Override
    public String toString() {
        return "RunRecord[runId=" + values.runId + ", harness=" + values.spec.harness() + ", provider="
                + values.providerName + ", model=" + values.resolvedModel + ", outcome="
                + values.result.outcome().wireName() + ", stage=" + values.stage + ", resultDir=" + values.resultDir
                + "]";
    }

    /** Builds a {@link RunRecord}. Not thread-safe. */
    public static final class Builder {
        private final RunRecordValues values;

        private Builder(String runId, RunSpec spec) {
            this(new RunRecordValues(runId, spec));
        }

        private Builder(RunRecordValues values) {
            this.values = values;
        }

        /** Sets the resolved provider's name. */
        public Builder providerName(String value) {
            values.providerName = value;
            return this;
        }

        /** Sets the model the harness was asked to use (requested, else the provider's default). */
        public Builder resolvedModel(String value) {
            values.resolvedModel = value;
            return this;
        }

        /** Sets the baseline repository, ref and base commit. */
        public Builder baseline(Baseline value) {
            values.baseline = value;
            return this;
        }

        /** Sets the workspace's HEAD after the run, or {@code null} when it was not read. */
        public Builder headAfter(String value) {
            values.headAfter = value;
            return this;
        }

        /** Sets the outcome, tokens, cost, served model, summary. */
        public Builder result(HarnessResult value) {
            values.result = value;
            return this;
        }

        /** Sets where a failure happened, or {@code null} when the run went through every stage. */
        public Builder stage(Stage value) {
            values.stage = value;
            return this;
        }

        /** Sets the harness's exit code, or {@code null} (not started, killed). */
        public Builder exitCode(Integer value) {
            values.exitCode = value;
            return this;
        }

        /** Sets why the process ended, or {@code null} when no process was started. */
        public Builder termination(Termination value) {
            values.termination = value;
            return this;
        }

        /** Sets when the run started. */
        public Builder startedAt(Instant value) {
            values.startedAt = value;
            return this;
        }

        /** Sets when the result was complete. */
        public Builder finishedAt(Instant value) {
            values.finishedAt = value;
            return this;
        }

        /** Sets what changed in the workspace, or {@code null} when it was not read. */
        public Builder changes(GitChanges value) {
            values.changes = value;
            return this;
        }

        /** Sets what the CLI said about its login. Default: {@link Login#unknown()}. */
        public Builder login(Login value) {
            values.login = value;
            return this;
        }

        /** Sets the push of the result to the baseline's remote, or {@code null} when no push was asked for or there was no remote. */
        public Builder branch(BranchPush value) {
            values.branch = value;
            return this;
        }

        /** Sets remarks on the run: that the baseline was dirty, what the capture left out; never secret. Default: none. */
        public Builder notes(List<String> value) {
            values.notes = value;
            return this;
        }

        /** Sets the run's own result directory, {@code results/<task>/<harness>__<provider>__<model>/<runId>}. */
        public Builder resultDir(Path value) {
            values.resultDir = value;
            return this;
        }

        /** Sets what the metering proxy saw, or {@code null} when metering was off or no process ran. */
        public Builder meter(MeterSummary value) {
            values.meter = value;
            return this;
        }

        /** Sets the result as the adapter read it, before the wire's figures, or {@code null}. */
        public Builder adapterResult(HarnessResult value) {
            values.adapterResult = value;
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
            values.sections.put(Objects.requireNonNull(key, "key"), value);
            return this;
        }

        /**
         * Sets {@link RunRecord#stageTimes()}.
         *
         * @param value the time each stage took, by name
         * @return this builder
         */
        public Builder stageTimes(Map<String, Duration> value) {
            values.stageTimes.clear();
            values.stageTimes.putAll(value);
            return this;
        }

        /**
         * Builds the record.
         *
         * @throws NullPointerException naming the first required value that is missing
         */
        public RunRecord build() {
            return new RunRecord(this);
        }
    }
}
