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
 */
public record Combo(String harness, String provider, String model, String resolvedModel, BenchTask task) {
    public Combo {
        Objects.requireNonNull(harness, "harness");
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(resolvedModel, "resolvedModel");
        Objects.requireNonNull(task, "task");
    }

    /** The results of this combo: its task, harness, provider and resolved model. */
    public ResultQuery query() {
        return ResultQuery.all().task(task.name()).harness(harness).provider(provider).model(resolvedModel);
    }
}
