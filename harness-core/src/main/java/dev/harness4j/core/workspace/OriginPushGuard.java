package dev.harness4j.core.workspace;

import dev.harness4j.api.Isolation;
import java.util.List;
import java.util.Objects;

/**
 * Makes a clone's {@code origin} unpushable: a clone's {@code origin} is the baseline's own
 * path, so an agent's {@code git push origin <branch>} (or {@code --tags}) would write the
 * baseline's refs. The push URL is set to a path that does not exist and says why; fetching from
 * {@code origin} keeps working. Result branches are unaffected: {@link BranchPusher} pushes to
 * the baseline's remote URL, never to the clone's {@code origin}. Worktrees share the baseline's
 * refs by design and are left as they are. Stateless and thread-safe.
 */
public final class OriginPushGuard {
    /** The name of the path a blocked push goes to (below the run's scratch dir, never created). */
    public static final String NO_PUSH = "no-push-from-a-run";

    private OriginPushGuard() {}

    /** Blocks pushes to {@code origin} in a clone workspace; a worktree is left unchanged. */
    public static void apply(Workspaces workspaces, Workspace ws) {
        Objects.requireNonNull(workspaces, "workspaces");
        if (Objects.requireNonNull(ws, "ws").isolation() != Isolation.CLONE) {
            return;
        }
        String target = ws.scratchDir().resolve(NO_PUSH).toString();
        workspaces.git().run(ws.dir(), List.of("remote", "set-url", "--push", "origin", target))
                .orThrow("blocking pushes to the baseline from clone " + ws.dir());
    }
}
