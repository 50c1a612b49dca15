package dev.harness4j.core;

import java.util.Objects;

/**
 * Which results a {@link ResultIndex} lookup wants: each key given must match, a key left out
 * matches anything. A model matches a result's requested or resolved model.
 *
 * <pre>{@code
 * List<StoredResult> runs = runner.results().find(ResultQuery.all().task("fix-bug").harness("aider"));
 * }</pre>
 *
 * @param task the task label, or {@code null} for any
 * @param harness the harness id, or {@code null} for any
 * @param provider the provider's name, or {@code null} for any
 * @param model the requested or resolved model, or {@code null} for any
 */
public record ResultQuery(String task, String harness, String provider, String model) {
    private static final ResultQuery ALL = new ResultQuery(null, null, null, null);

    /** Matches every result. */
    public static ResultQuery all() {
        return ALL;
    }

    public ResultQuery task(String value) {
        return new ResultQuery(Objects.requireNonNull(value, "task"), harness, provider, model);
    }

    public ResultQuery harness(String value) {
        return new ResultQuery(task, Objects.requireNonNull(value, "harness"), provider, model);
    }

    public ResultQuery provider(String value) {
        return new ResultQuery(task, harness, Objects.requireNonNull(value, "provider"), model);
    }

    public ResultQuery model(String value) {
        return new ResultQuery(task, harness, provider, Objects.requireNonNull(value, "model"));
    }

    /** Whether a result has every key this query gives. */
    public boolean matches(StoredResult r) {
        return (task == null || task.equals(r.task()))
                && (harness == null || harness.equals(r.harness()))
                && (provider == null || provider.equals(r.provider()))
                && (model == null || model.equals(r.model()) || model.equals(r.resolvedModel()));
    }
}
