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
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything one run produced: {@code meta.json} in Java form, plus where the result is on disk.
 *
 * @param runId the run's unique id
 * @param spec what was asked for
 * @param providerName the resolved provider's name
 * @param resolvedModel the model the harness was asked to use (requested, else the provider's default)
 * @param baseline the baseline repository, ref and base commit
 * @param headAfter the workspace's HEAD after the run, or {@code null} when it was not read
 * @param result the outcome, tokens, cost, served model, summary
 * @param stage where a failure happened, or {@code null} when the run went through every stage
 * @param exitCode the harness's exit code, or {@code null} (not started, killed)
 * @param termination why the process ended, or {@code null} when no process was started
 * @param startedAt when the run started
 * @param finishedAt when the result was complete
 * @param changes what changed in the workspace, or {@code null} when it was not read
 * @param login what the CLI said about its login
 * @param branch the push of the result to the baseline's remote, or {@code null} when there was
 *     no remote (or no push)
 * @param notes remarks on the run: that the baseline was dirty, what the capture left out (a git
 *     repository without a commit made in the checkout); never secret
 * @param resultDir the directory the result was written to
 */
public record RunRecord(
        String runId,
        RunSpec spec,
        String providerName,
        String resolvedModel,
        Baseline baseline,
        String headAfter,
        HarnessResult result,
        Stage stage,
        Integer exitCode,
        Termination termination,
        Instant startedAt,
        Instant finishedAt,
        GitChanges changes,
        Login login,
        BranchPush branch,
        List<String> notes,
        Path resultDir) {

    /** The stages of a run, for saying where a failure happened. */
    public enum Stage {
        RESOLVE, WORKSPACE, PREPARE, RUN, CAPTURE;

        /** The lower-case name used in {@code meta.json}. */
        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public RunRecord {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(providerName, "providerName");
        Objects.requireNonNull(resolvedModel, "resolvedModel");
        Objects.requireNonNull(baseline, "baseline");
        Objects.requireNonNull(result, "result");
        Objects.requireNonNull(startedAt, "startedAt");
        Objects.requireNonNull(finishedAt, "finishedAt");
        Objects.requireNonNull(login, "login");
        notes = List.copyOf(Objects.requireNonNull(notes, "notes"));
        Objects.requireNonNull(resultDir, "resultDir");
    }

    /** Wall time of the whole run. */
    public Duration duration() {
        return Duration.between(startedAt, finishedAt);
    }

    public Optional<Stage> failedStage() {
        return Optional.ofNullable(stage);
    }

    public Optional<BranchPush> branchPush() {
        return Optional.ofNullable(branch);
    }

    /** {@code meta.json} in the result directory. */
    public Path metaFile() {
        return resultDir.resolve("meta.json");
    }

    public RunRecord withResultDir(Path value) {
        return new RunRecord(runId, spec, providerName, resolvedModel, baseline, headAfter, result, stage, exitCode,
                termination, startedAt, finishedAt, changes, login, branch, notes, value);
    }
}
