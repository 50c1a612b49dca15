/**
 * Per-run isolated checkouts of a baseline repository ({@link dev.harness4j.core.internal.workspace.Workspaces}),
 * what a run changed in them ({@link dev.harness4j.core.internal.workspace.ChangeCollector}) and the
 * push of the result to a {@code harnesstests/<task>/<combo>/<runId>} branch when asked for
 * ({@link dev.harness4j.core.internal.workspace.BranchPusher}). Not API.
 *
 * <p>The baseline's working tree, index, HEAD and refs are never written. In
 * {@link dev.harness4j.api.Isolation#WORKTREE} mode git registers the worktree under the
 * baseline's {@code .git/worktrees/}; that registration is removed again ({@code git worktree
 * remove --force} then {@code git worktree prune}) when the workspace is closed.
 */
package dev.harness4j.core.internal.workspace;
