package dev.harness4j.core.internal.workspace;

import java.util.Objects;

/**
 * Makes a clone's {@code origin} unpushable: a clone's {@code origin} is the baseline's own
 * path, so an agent's {@code git push origin <branch>} (or {@code --tags}) would write the
 * baseline's refs. {@link Workspaces} makes every clone with {@code origin}'s push URL set to
 * {@link #pushUrl}, a path that does not exist and says why; fetching from {@code origin} keeps
 * working. Result branches are unaffected: {@link BranchPusher} pushes to the baseline's remote
 * URL, never to the clone's {@code origin}. Worktrees share the baseline's refs by design and
 * get no guard. Stateless and thread-safe.
 */
public final class OriginPushGuard {
    /** The name of the path a blocked push goes to (below the run's scratch dir, never created). */
    public static final String NO_PUSH = "no-push-from-a-run";

    private OriginPushGuard() {}

    /** The push URL a clone workspace's {@code origin} gets: {@code <scratchDir>/}{@value #NO_PUSH}. */
    public static String pushUrl(Workspace ws) {
        return Objects.requireNonNull(ws, "ws").scratchDir().resolve(NO_PUSH).toString();
    }
}
