package dev.harness4j.api;

import java.util.List;
import java.util.Objects;

/**
 * What a run changed in its workspace relative to the base commit.
 *
 * @param baseCommit the commit the workspace started at
 * @param headCommit the workspace's HEAD after the run
 * @param headMoved whether HEAD differs from the base commit (the harness committed)
 * @param dirty whether the working tree has uncommitted changes, untracked files included (the
 *     library's own scratch files never count)
 * @param files the paths changed since the base commit, committed or not
 * @param insertions lines added since the base commit
 * @param deletions lines removed since the base commit
 */
public record GitChanges(
        String baseCommit, String headCommit, boolean headMoved, boolean dirty,
        List<String> files, int insertions, int deletions) {

    /**
     * Checks the commits and copies the file list.
     *
     * @param baseCommit the commit the workspace started at
     * @param headCommit the workspace's HEAD after the run
     * @param headMoved whether HEAD differs from the base commit
     * @param dirty whether the working tree has uncommitted changes
     * @param files the paths changed since the base commit
     * @param insertions lines added since the base commit
     * @param deletions lines removed since the base commit
     */
    public GitChanges {
        Objects.requireNonNull(baseCommit, "baseCommit");
        Objects.requireNonNull(headCommit, "headCommit");
        files = List.copyOf(Objects.requireNonNull(files, "files"));
    }

    /** A placeholder commit id (40 zeros) for tests that need no real repository. */
    public static final String NO_COMMIT = "0000000000000000000000000000000000000000";

    /**
     * Uncommitted changes to the given files on top of {@code commit}, for tests.
     *
     * @param commit the base commit, which is also the head
     * @param insertions lines added
     * @param deletions lines removed
     * @param files the changed files, relative to the workspace
     * @return changes that leave the working tree dirty
     */
    public static GitChanges dirty(String commit, int insertions, int deletions, String... files) {
        return new GitChanges(commit, commit, false, true, List.of(files), insertions, deletions);
    }

    /**
     * No changes at the given commit.
     *
     * @param commit the base commit, which is also the head
     * @return changes that changed nothing
     */
    public static GitChanges none(String commit) {
        return new GitChanges(commit, commit, false, false, List.of(), 0, 0);
    }

    /**
     * The rule for opaque harnesses: {@code headMoved || dirty}.
     *
     * @return whether HEAD moved or the working tree is dirty
     */
    public boolean changed() {
        return headMoved || dirty;
    }
}
