package dev.harness4j.core.workspace;

import java.util.Objects;

/**
 * The outcome of pushing a run's result to a branch of the baseline's remote.
 *
 * @param pushed whether the push succeeded
 * @param name the branch name, e.g. {@code harnesstests/claude-code__sonnet}
 * @param remote the remote's name in the baseline (e.g. {@code origin})
 * @param commit the commit pushed (the workspace's HEAD, or a snapshot commit on top of it
 *     holding uncommitted work), or {@code null} when none was made
 * @param error why the push failed, or {@code null}
 */
public record BranchPush(boolean pushed, String name, String remote, String commit, String error) {
    public BranchPush {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(remote, "remote");
        if (!pushed && error == null) {
            throw new IllegalArgumentException("a failed push needs an error");
        }
    }
}
