package dev.harness4j.api;

/** How a harness tells the library that it finished and what it did. */
public enum CompletionMode {
    /**
     * The CLI prints a machine-readable result envelope (Claude Code's
     * {@code --output-format json}); outcome, tokens, cost and served models come from it.
     */
    STRUCTURED,
    /**
     * No envelope: the outcome comes from the exit code and the git changes (see
     * {@link Outcomes#opaque(Execution)}); tokens are parsed best-effort or measured elsewhere.
     */
    OPAQUE
}
