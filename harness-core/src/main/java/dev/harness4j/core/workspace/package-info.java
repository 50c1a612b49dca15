/**
 * What a run's workspace tells a caller: the {@link dev.harness4j.core.workspace.Baseline} it
 * started from, the {@link dev.harness4j.core.workspace.BranchPush} of its result (only when
 * asked for), and the errors bad input raises before anything starts
 * ({@link dev.harness4j.core.workspace.NotAGitRepositoryException},
 * {@link dev.harness4j.core.workspace.UnknownRefException},
 * {@link dev.harness4j.core.workspace.StateDirNotWritableException}).
 *
 * <p>The machinery (checkouts, change capture, pushes) lives in the non-exported
 * {@code dev.harness4j.core.internal.workspace}. The baseline's working tree, index, HEAD and
 * refs are never written.
 */
package dev.harness4j.core.workspace;
