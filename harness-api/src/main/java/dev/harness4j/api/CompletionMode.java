package dev.harness4j.api;

/**
 * How a harness tells the library that it finished and what it did. The adapter reads its own
 * output either way; the runner uses the mode in one place and records it in {@code meta.json}
 * ({@code completion_mode}): when the metering proxy saw the last model request fail, it refines
 * an adapter's {@code error} for every harness, but a {@code no-op} only for an {@link #OPAQUE}
 * one (whose "exit 0, nothing changed" may hide a failed request); a {@link #STRUCTURED}
 * harness's {@code no-op} comes from a clean result envelope and stands.
 */
public enum CompletionMode {
    /**
     * The CLI prints a machine-readable result envelope (Claude Code's
     * {@code --output-format json}); outcome, tokens, cost and served models come from it.
     */
    STRUCTURED,
    /**
     * No envelope: the outcome comes from the exit code and the git changes (see
     * {@link dev.harness4j.api.support.Outcomes#opaque(Execution)}); tokens are parsed best-effort or measured elsewhere.
     */
    OPAQUE
}
