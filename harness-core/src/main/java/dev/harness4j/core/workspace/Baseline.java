package dev.harness4j.core.workspace;

import java.nio.file.Path;
import java.util.Objects;

/**
 * A baseline repository resolved at a ref: what a workspace is isolated from.
 *
 * @param repo the repository's top-level directory (real path)
 * @param ref the ref as asked for, or as defaulted (the current branch; the HEAD commit id for a
 *     detached HEAD)
 * @param commit the full commit id the ref names
 * @param branch the short name of the local branch {@code ref} names, or {@code null} when it
 *     names a tag, a commit id or an expression
 * @param dirty whether the baseline's working tree had uncommitted changes (untracked files
 *     included) while {@code commit} is its HEAD: those changes are <em>not</em> isolated, only
 *     the committed state is
 */
public record Baseline(Path repo, String ref, String commit, String branch, boolean dirty) {
    public Baseline {
        Objects.requireNonNull(repo, "repo");
        Objects.requireNonNull(ref, "ref");
        Objects.requireNonNull(commit, "commit");
    }

    /** The note recorded for a dirty baseline, or {@code null} when it was clean. */
    public String dirtyNote() {
        return dirty ? "the baseline had uncommitted changes; the workspace was isolated from its committed state "
                + commit + " (uncommitted and untracked files are not included)" : null;
    }
}
