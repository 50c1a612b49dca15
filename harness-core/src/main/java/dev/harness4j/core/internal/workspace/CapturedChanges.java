package dev.harness4j.core.internal.workspace;

import dev.harness4j.api.GitChanges;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * What {@link ChangeCollector} found in a workspace.
 *
 * @param changes the summary
 * @param tree the tree id of the workspace as it was (committed and uncommitted work, untracked
 *     files included, ignored files excluded)
 * @param patch the file holding {@code git diff <base> <tree>} (binary files marked, not inlined)
 * @param diffstat the file holding {@code git diff --stat <base> <tree>}
 * @param notes what the capture had to leave out and why (e.g. a git repository without a
 *     commit that the agent made inside the checkout); empty when nothing was
 */
public record CapturedChanges(GitChanges changes, String tree, Path patch, Path diffstat, List<String> notes) {
    public CapturedChanges {
        Objects.requireNonNull(changes, "changes");
        Objects.requireNonNull(tree, "tree");
        Objects.requireNonNull(patch, "patch");
        Objects.requireNonNull(diffstat, "diffstat");
        notes = List.copyOf(Objects.requireNonNull(notes, "notes"));
    }

    /** Changes captured whole, without notes. */
    public CapturedChanges(GitChanges changes, String tree, Path patch, Path diffstat) {
        this(changes, tree, patch, diffstat, List.of());
    }
}
