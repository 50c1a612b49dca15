package dev.harness4j.cli;

import dev.harness4j.api.ProviderResolver;
import dev.harness4j.core.queue.QueueProcessor;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * What a program that runs the {@code harness4j} command in its own JVM ({@link
 * Harness4j#run(java.io.PrintWriter, java.io.PrintWriter, Embedding, String...)}) gives the
 * {@code bench run} and {@code bench resume} commands: the providers instead of {@code
 * <state-dir>/config/providers.json} (an in-process scripted model server, say), a wrapper of the
 * executor that runs each queue entry, and options put on every run spec. The bench's main job
 * runs the bundled sample suite this way.
 *
 * @param providers the providers, or {@code null} for the state dir's {@code providers.json}
 * @param decorate wraps the executor of each run
 * @param options harness options for every run ({@code RunSpec} options)
 */
public record Embedding(ProviderResolver providers, UnaryOperator<QueueProcessor.Executor> decorate,
        Map<String, String> options) {
    /** Nothing embedded: what the plain {@code harness4j} command uses. */
    public static final Embedding NONE = new Embedding(null, UnaryOperator.identity(), Map.of());

    public Embedding {
        Objects.requireNonNull(decorate, "decorate");
        options = Map.copyOf(options);
    }
}
