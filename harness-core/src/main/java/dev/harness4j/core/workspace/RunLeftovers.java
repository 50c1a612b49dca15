package dev.harness4j.core.workspace;

import dev.harness4j.core.internal.workspace.SafeDelete;
import dev.harness4j.core.process.RunMarker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * What a run whose process died (kill -9, power cut) left in a state dir, and the means to
 * sweep it: its surviving processes (found by {@link RunMarker}), its workspace and scratch dir
 * {@code <stateDir>/runs/<runId>} with the files next to it named {@code <runId>.*} (the event
 * log), and a half-written result directory {@code <stateDir>/results/.tmp-<runId>}. A complete
 * result directory is never touched.
 *
 * <p>For a process that keeps its own record of the runs it started (a queue worker on another
 * store than core's files) and sweeps them when it starts again, as {@code RunQueue.recover()}
 * does for core's file queue. The caller decides that the run is dead; nothing here checks it.
 *
 * <pre>{@code
 * RunLeftovers.Swept s = RunLeftovers.sweep(stateDir, runId, RunMarker.KILL_TIMEOUT);
 * }</pre>
 *
 * <p>Deletion goes only below the state dir, judged on real paths; symbolic links are deleted as
 * links, never followed.
 */
public final class RunLeftovers {
    /** What a run id must look like to be swept: one safe path element. */
    private static final Pattern RUN_ID = Pattern.compile("[A-Za-z0-9._-]+");

    private RunLeftovers() {}

    /**
     * What {@link #sweep} did.
     *
     * @param killed how many surviving processes carried the run's marker
     * @param removed the paths removed
     */
    public record Swept(int killed, List<Path> removed) {
        public Swept {
            removed = List.copyOf(removed);
        }
    }

    /**
     * Stops the run's surviving processes of this state dir (those carrying its {@link
     * RunMarker#scopeOf scope}: a run of the same id under another state dir is spared; {@code
     * TERM}, {@code grace}, then {@code KILL}), then
     * removes its files ({@link #remove}).
     *
     * @throws IllegalArgumentException when the run id is not one safe path element
     * @throws WorkspaceException when a path cannot be deleted, or lies outside the state dir
     */
    public static Swept sweep(Path stateDir, String runId, Duration grace) {
        Objects.requireNonNull(grace, "grace");
        check(stateDir, runId);
        int killed = RunMarker.killAll(runId, RunMarker.scopeOf(stateDir), grace);
        return new Swept(killed, remove(stateDir, runId));
    }

    /**
     * Removes the run's workspace and scratch dir, the files named {@code <runId>.*} next to it,
     * and its half-written result directory; kills nothing (a live process of the run would keep
     * writing).
     *
     * @return the paths removed (none when nothing was left)
     * @throws IllegalArgumentException when the run id is not one safe path element
     * @throws WorkspaceException when a path cannot be deleted, or lies outside the state dir
     */
    public static List<Path> remove(Path stateDir, String runId) {
        check(stateDir, runId);
        List<Path> removed = new ArrayList<>();
        Path runs = stateDir.resolve("runs");
        if (Files.isDirectory(runs)) {
            List<Path> found = new ArrayList<>();
            try (var entries = Files.newDirectoryStream(runs, p -> {
                String n = p.getFileName().toString();
                return n.equals(runId) || n.startsWith(runId + ".");
            })) {
                entries.forEach(found::add);
            } catch (IOException e) {
                throw new WorkspaceException("could not list " + runs + " for the leftovers of run " + runId, e);
            }
            for (Path p : found) {
                SafeDelete.deleteBelow(runs, p);
                removed.add(p);
            }
        }
        Path results = stateDir.resolve("results");
        Path partial = results.resolve(".tmp-" + runId); // what the result writer renames into place whole
        if (Files.exists(partial, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            SafeDelete.deleteBelow(results, partial);
            removed.add(partial);
        }
        return removed;
    }

    private static void check(Path stateDir, String runId) {
        Objects.requireNonNull(stateDir, "stateDir");
        Objects.requireNonNull(runId, "runId");
        if (!RUN_ID.matcher(runId).matches() || runId.equals(".") || runId.equals("..")) {
            throw new IllegalArgumentException("not a run id (letters, digits, '.', '_' and '-' only): " + runId);
        }
    }
}
