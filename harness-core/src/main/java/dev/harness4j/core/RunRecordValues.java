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
import java.util.Objects;

/**
 * The values of a {@link RunRecord}: what its {@link RunRecord.Builder} gathers, and, checked and
 * made unmodifiable by {@link #frozen()}, what a record holds and compares. A builder's instance is
 * not thread-safe; a frozen one is never changed.
 */
final class RunRecordValues {
    final String runId;
    final RunSpec spec;
    String providerName;
    String resolvedModel;
    Baseline baseline;
    String headAfter;
    HarnessResult result;
    RunRecord.Stage stage;
    Integer exitCode;
    Termination termination;
    Instant startedAt;
    Instant finishedAt;
    GitChanges changes;
    Login login = Login.unknown();
    BranchPush branch;
    List<String> notes = List.of();
    Path resultDir;
    MeterSummary meter;
    HarnessResult adapterResult;
    Map<String, Object> sections = new LinkedHashMap<>();
    Map<String, Duration> stageTimes = new LinkedHashMap<>();

    RunRecordValues(String runId, RunSpec spec) {
        this.runId = Objects.requireNonNull(runId, "runId");
        this.spec = Objects.requireNonNull(spec, "spec");
    }

    /** A copy to change: the same values, the maps copied. */
    RunRecordValues copy() {
        RunRecordValues c = new RunRecordValues(runId, spec);
        c.providerName = providerName;
        c.resolvedModel = resolvedModel;
        c.baseline = baseline;
        c.headAfter = headAfter;
        c.result = result;
        c.stage = stage;
        c.exitCode = exitCode;
        c.termination = termination;
        c.startedAt = startedAt;
        c.finishedAt = finishedAt;
        c.changes = changes;
        c.login = login;
        c.branch = branch;
        c.notes = notes;
        c.resultDir = resultDir;
        c.meter = meter;
        c.adapterResult = adapterResult;
        c.sections = new LinkedHashMap<>(sections);
        c.stageTimes = new LinkedHashMap<>(stageTimes);
        return c;
    }

    /**
     * A checked copy for a record: the notes and maps unmodifiable.
     *
     * @throws NullPointerException naming the first required value that is missing
     */
    RunRecordValues frozen() {
        Objects.requireNonNull(providerName, "providerName");
        Objects.requireNonNull(resolvedModel, "resolvedModel");
        Objects.requireNonNull(baseline, "baseline");
        Objects.requireNonNull(result, "result");
        Objects.requireNonNull(startedAt, "startedAt");
        Objects.requireNonNull(finishedAt, "finishedAt");
        Objects.requireNonNull(login, "login");
        List<String> frozenNotes = List.copyOf(Objects.requireNonNull(notes, "notes"));
        Objects.requireNonNull(resultDir, "resultDir");
        RunRecordValues f = copy();
        f.notes = frozenNotes;
        f.sections = Collections.unmodifiableMap(f.sections);
        f.stageTimes = Collections.unmodifiableMap(f.stageTimes);
        return f;
    }

    /** Whether the two hold the same values, {@link #stageTimes} aside (a measurement). */
    boolean sameAs(RunRecordValues r) {
        return runId.equals(r.runId) && spec.equals(r.spec)
                && providerName.equals(r.providerName) && resolvedModel.equals(r.resolvedModel)
                && baseline.equals(r.baseline) && Objects.equals(headAfter, r.headAfter) && result.equals(r.result)
                && stage == r.stage && Objects.equals(exitCode, r.exitCode) && Objects.equals(termination, r.termination)
                && startedAt.equals(r.startedAt) && finishedAt.equals(r.finishedAt) && Objects.equals(changes, r.changes)
                && login.equals(r.login) && Objects.equals(branch, r.branch) && notes.equals(r.notes)
                && resultDir.equals(r.resultDir) && Objects.equals(meter, r.meter)
                && Objects.equals(adapterResult, r.adapterResult) && sections.equals(r.sections);
    }

    /** The hash of the values {@link #sameAs} compares. */
    int hash() {
        return Objects.hash(runId, spec, providerName, resolvedModel, baseline, headAfter, result, stage, exitCode,
                termination, startedAt, finishedAt, changes, login, branch, notes, resultDir, meter, adapterResult,
                sections);
    }
}
