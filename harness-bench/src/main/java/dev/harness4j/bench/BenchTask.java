package dev.harness4j.bench;

import java.util.Objects;

/**
 * One task of a bench: a short name (used in reports) and the prompt, unframed.
 *
 * @param name a short label, e.g. {@code hello-file}
 * @param prompt what the agent is asked to do (the {@link dev.harness4j.core.AutonomyPreamble} is added when the
 *     spec is made)
 */
public record BenchTask(String name, String prompt) {
    public BenchTask {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(prompt, "prompt");
        if (name.isBlank() || prompt.isBlank()) {
            throw new IllegalArgumentException("a bench task needs a non-blank name and prompt");
        }
    }
}
