package dev.harness4j.core;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One run's result as found on disk by a {@link ResultIndex}: the keys read from its {@code
 * meta.json}, and its directory.
 *
 * @param runId the run's id
 * @param task the task label, or {@code null} when the run named none
 * @param harness the harness id
 * @param provider the provider's name
 * @param model the requested model, or {@code null} when the provider's default was asked for
 * @param resolvedModel the model the harness was asked to use
 * @param trial which repetition of its task, harness, provider and model the run was (1 up)
 * @param outcome the outcome's wire name ({@code completed}, {@code no-op}, ...)
 * @param finishedAt when the result was complete
 * @param dir the run's result directory ({@code meta.json}, {@code diff.patch}, ...)
 */
public record StoredResult(
        String runId,
        String task,
        String harness,
        String provider,
        String model,
        String resolvedModel,
        int trial,
        String outcome,
        Instant finishedAt,
        Path dir) {

    public StoredResult {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(harness, "harness");
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(resolvedModel, "resolvedModel");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(finishedAt, "finishedAt");
        Objects.requireNonNull(dir, "dir");
    }

    /** The task label, when the run named one. */
    public Optional<String> taskLabel() {
        return Optional.ofNullable(task);
    }

    /** {@code meta.json} in the result directory. */
    public Path metaFile() {
        return dir.resolve("meta.json");
    }
}
