package dev.harness4j.bench;

import dev.harness4j.core.ResultQuery;
import java.util.Objects;

/**
 * One cell of a bench matrix.
 *
 * @param harness the harness id
 * @param provider the provider name
 * @param model the requested model, or {@code null} for the provider's default
 * @param resolvedModel the model the provider resolved ({@code model}, else its default)
 * @param task the task
 * @param label the task's label in results: its id, prefixed by the bench's id and {@code /} when the bench has one
 * @param trial which repetition of this task, harness and model (1 up)
 */
public record Combo(String harness, String provider, String model, String resolvedModel, BenchTask task, String label,
        int trial) {
    public Combo {
        Objects.requireNonNull(harness, "harness");
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(resolvedModel, "resolvedModel");
        Objects.requireNonNull(task, "task");
        Objects.requireNonNull(label, "label");
        if (trial < 1) {
            throw new IllegalArgumentException("trial must be >= 1, was " + trial);
        }
    }

    /** The first trial of a task labelled by its id. */
    public Combo(String harness, String provider, String model, String resolvedModel, BenchTask task) {
        this(harness, provider, model, resolvedModel, task, task.id(), 1);
    }

    /** The results of this combo, every trial: its task label, harness, provider and resolved model. */
    public ResultQuery query() {
        return ResultQuery.all().task(label).harness(harness).provider(provider).model(resolvedModel);
    }
}
