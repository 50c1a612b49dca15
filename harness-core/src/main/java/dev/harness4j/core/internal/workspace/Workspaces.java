package dev.harness4j.core.internal.workspace;

import dev.harness4j.core.internal.util.PrivateFiles;

import dev.harness4j.api.Isolation;
import dev.harness4j.core.internal.util.Checks;
import dev.harness4j.core.workspace.Baseline;
import dev.harness4j.core.workspace.NotAGitRepositoryException;
import dev.harness4j.core.workspace.StateDirNotWritableException;
import dev.harness4j.core.workspace.UnknownRefException;
import dev.harness4j.core.workspace.WorkspaceException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.regex.Pattern;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Isolates a baseline repository at a ref into a per-run checkout under {@code
 * <stateDir>/runs/<runId>/}. The baseline's working tree, index, HEAD and refs are never written.
 * Immutable and thread-safe.
 *
 * <pre>{@code
 * Workspaces workspaces = Workspaces.builder().stateDir(Path.of("/var/h4j")).build();
 * try (Workspace ws = workspaces.isolate("run-1", workspaces.inspect(repo, null), Isolation.CLONE)) {
 *     // work in ws.dir(); ws.close() removes it
 * }
 * }</pre>
 *
 * <p>Reading the baseline (is it a repository, which commit does the ref name, which branch is
 * current) uses JGit in-process; making checkouts uses the {@code git} binary, which checks out
 * large trees several times faster than JGit. {@link Isolation#CLONE} is what {@code git clone
 * --local} makes (objects hard-linked, the baseline is {@code origin}, pushes to it blocked by
 * {@link OriginPushGuard}) with the commit checked out on a local branch named like the
 * baseline's branch (detached for a commit id); its {@code .git} is written in process where that
 * is exact (see {@code LocalClone}), saving {@code git clone}'s processes, else by {@code git clone};
 * {@link Isolation#WORKTREE} is {@code git worktree add --detach}, which registers the worktree
 * under the baseline's {@code .git/worktrees/} until the workspace is closed ({@code git worktree
 * remove --force}, then {@code git worktree prune} if that failed).
 *
 * <p>Git's worktree commands race each other on one repository: each reads every {@code
 * .git/worktrees/<id>/} and dies on one that another command is making or removing ({@code
 * failed to read .git/worktrees/<id>/commondir}). So this class runs them one at a time per
 * baseline within the JVM, and tries a failed one again ({@value #WORKTREE_ATTEMPTS} times in all,
 * after a short pause) against other processes working on the same baseline.
 *
 * <p>A worktree shares the baseline's object store and refs: objects the harness creates land
 * in the baseline's object store (unreferenced, so {@code git gc} removes them), and a branch or
 * tag the harness creates in a worktree is a branch or tag of the baseline. Use the default
 * {@link Isolation#CLONE} when the harness may create refs.
 *
 * <p>A dirty baseline is isolated from its committed state; {@link Baseline#dirty()} says so.
 */
public final class Workspaces {
    private static final Logger log = LoggerFactory.getLogger(Workspaces.class);

    /** The default state dir: {@code ~/.harness4j}. */
    public static Path defaultStateDir() {
        return Path.of(System.getProperty("user.home"), ".harness4j");
    }

    private static final Pattern RUN_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");

    /** How many times a failed {@code git worktree} command is tried in all before it is reported: 8. */
    public static final int WORKTREE_ATTEMPTS = 8;

    /**
     * JVM-wide (every {@code Workspaces} shares them, as they share baselines): one lock per
     * baseline path around each {@code git worktree} command; see the class doc. A JVM works
     * on a handful of baselines, so the map stays small.
     */
    private static final ConcurrentMap<Path, ReentrantLock> WORKTREE_LOCKS = new ConcurrentHashMap<>();

    private final Path stateDir;
    private volatile String markerScope;
    private final GitCli git;

    private Workspaces(Builder b) {
        this.stateDir = b.stateDir.toAbsolutePath().normalize();
        this.git = new GitCli(b.gitExecutable, b.gitTimeout);
    }

    public static Builder builder() {
        return new Builder();
    }

    public Path stateDir() {
        return stateDir;
    }

    /** The state dir's process-marker scope ({@link dev.harness4j.core.process.RunMarker#scopeOf}), computed once. */
    public String markerScope() {
        String s = markerScope;
        if (s == null) {
            s = dev.harness4j.core.process.RunMarker.scopeOf(stateDir);
            markerScope = s;
        }
        return s;
    }

    GitCli git() {
        return git;
    }

    /**
     * Creates {@code dir} (below the state dir) if needed and checks it can be written.
     *
     * @throws StateDirNotWritableException when it cannot
     */
    public Path ensureWritableDir(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException | UnsupportedOperationException e) {
            throw new StateDirNotWritableException(stateDir, dir, e);
        }
        if (!Files.isDirectory(dir) || !Files.isWritable(dir)) {
            throw new StateDirNotWritableException(stateDir, dir, null);
        }
        return dir;
    }

    /**
     * Resolves a baseline repository at a ref without changing anything ({@link BaselineInspection}).
     *
     * @param repo a path inside a git checkout (its top level is used)
     * @param ref a branch, tag or commit-ish, or {@code null} for the current branch (the HEAD
     *     commit when HEAD is detached)
     * @throws NotAGitRepositoryException when {@code repo} is no git checkout or has no commit
     * @throws UnknownRefException when {@code ref} names no commit
     */
    public Baseline inspect(Path repo, String ref) {
        return BaselineInspection.inspect(git, repo, ref);
    }

    /**
     * Checks that a run id is safe as a directory name: {@code [A-Za-z0-9][A-Za-z0-9._-]{0,127}}.
     *
     * @throws IllegalArgumentException when it is not
     */
    public static String requireValidRunId(String runId) {
        if (!RUN_ID.matcher(Objects.requireNonNull(runId, "runId")).matches()) {
            throw new IllegalArgumentException("runId must match " + RUN_ID + ", was '" + runId + "'");
        }
        return runId;
    }

    /** {@link #inspect(Path, String)} then {@link #isolate(String, Baseline, Isolation)}. */
    public Workspace isolate(String runId, Path repo, String ref, Isolation isolation) {
        return isolate(runId, inspect(repo, ref), isolation);
    }

    /**
     * Makes the run's checkout of {@code baseline} under {@code <stateDir>/runs/<runId>/}. On
     * failure nothing is left behind.
     *
     * @throws StateDirNotWritableException when the run's directory cannot be created
     * @throws WorkspaceException when git fails to make the checkout
     */
    public Workspace isolate(String runId, Baseline baseline, Isolation isolation) {
        Objects.requireNonNull(baseline, "baseline");
        Objects.requireNonNull(isolation, "isolation");
        requireValidRunId(runId);
        Path runs = ensureWritableDir(stateDir.resolve("runs"));
        Path runDir = runs.resolve(runId);
        if (Files.exists(runDir)) {
            throw new WorkspaceException("run directory " + runDir + " already exists; run ids must be unique");
        }
        try {
            PrivateFiles.createDirectory(runDir); // 0700: a live run's output is not redacted yet
        } catch (IOException e) {
            throw new StateDirNotWritableException(stateDir, runDir, e);
        }
        Workspace ws = new Workspace(this, runId, runDir, baseline, isolation);
        try {
            ensureWritableDir(ws.scratchDir());
            ensureWritableDir(ws.ioDir());
            String commit = baseline.commit();
            String target = ws.dir().toString();
            if (isolation == Isolation.CLONE) {
                clone(baseline, ws);
            } else {
                worktreeGit(baseline.repo(), List.of("worktree", "add", "--detach", "--quiet", target, commit),
                        () -> SafeDelete.deleteBelow(stateDir, ws.dir())) // a failed add may leave the directory
                        .orThrow("adding a worktree of " + baseline.repo());
            }
            log.debug("isolated {} at {} ({}) into {} as {}", baseline.repo(), baseline.ref(), commit, target, isolation);
            return ws;
        } catch (RuntimeException e) {
            try {
                remove(ws);
            } catch (RuntimeException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
    }

    /**
     * The clone: its {@code .git} written in process by {@link LocalClone} and checked out in
     * process by {@link TreeCheckout} (a small plain tree) or with one {@code git read-tree --reset
     * -u HEAD}; where {@link LocalClone} declines (or that
     * fails), {@code git clone --local} without hook templates, with the baseline's branch checked
     * out in the same command when the ref is a branch (checked against the commit resolved
     * earlier, in case the branch moved since), else a detached checkout of the commit. Either way
     * {@code origin}'s push URL is {@link OriginPushGuard#pushUrl}.
     */
    private void clone(Baseline baseline, Workspace ws) {
        String commit = baseline.commit();
        String target = ws.dir().toString();
        String what = "cloning " + baseline.repo() + " into " + target;
        String pushUrl = OriginPushGuard.pushUrl(ws);
        try {
            if (LocalClone.write(baseline, ws.dir(), pushUrl)) {
                if (TreeCheckout.checkout(ws.dir(), commit)) {
                    return;
                }
                GitCli.Result r = git.run(ws.dir(), List.of("read-tree", "--reset", "-u", "HEAD"));
                if (r.ok()) {
                    return;
                }
                log.debug("checking out the clone of {} failed ({}); using git clone", baseline.repo(), r.stderr().strip());
            }
        } catch (IOException | RuntimeException e) {
            log.debug("writing a clone of {} in process failed ({}); using git clone", baseline.repo(), e.toString());
        }
        SafeDelete.deleteBelow(stateDir, ws.dir()); // whatever the attempt left
        List<String> cmd = new ArrayList<>(List.of("clone", "--local", "--quiet", "--template=",
                "--config", "remote.origin.pushurl=" + pushUrl));
        if (baseline.branch() != null) {
            cmd.addAll(List.of("--branch", baseline.branch()));
        } else {
            cmd.add("--no-checkout");
        }
        cmd.addAll(List.of(baseline.repo().toString(), target));
        git.run(ws.runDir(), cmd).orThrow(what);
        if (baseline.branch() == null) {
            git.run(ws.dir(), List.of("checkout", "--quiet", "--detach", commit)).orThrow(what);
        } else if (!commit.equals(headOf(ws.dir()))) {
            git.run(ws.dir(), List.of("checkout", "--quiet", "-B", baseline.branch(), commit)).orThrow(what);
        }
    }

    private static String headOf(Path repo) {
        try (Repository r = new FileRepositoryBuilder().setWorkTree(repo.toFile()).setMustExist(true).build()) {
            ObjectId id = r.resolve(Constants.HEAD);
            return id == null ? null : id.name();
        } catch (IOException e) {
            return null;
        }
    }

    /** Removes a workspace's registration (worktree mode) and its run directory. */
    void remove(Workspace ws) {
        WorkspaceException failure = null;
        boolean prune = false;
        if (ws.isolation() == Isolation.WORKTREE && !Files.exists(ws.dir())) {
            prune = true; // a half-made worktree may be registered without its directory
        } else if (ws.isolation() == Isolation.WORKTREE) {
            GitCli.Result r = worktreeGit(ws.baseline().repo(),
                    List.of("worktree", "remove", "--force", "--force", ws.dir().toString()), () -> {});
            if (!r.ok()) {
                log.warn("git worktree remove failed for {} ({}); pruning instead", ws.dir(), r.stderr().strip());
                prune = true;
            }
        }
        try {
            SafeDelete.deleteBelow(stateDir, ws.runDir());
        } catch (WorkspaceException e) {
            failure = e;
        }
        if (prune) {
            try {
                pruneWorktrees(ws.baseline().repo());
            } catch (WorkspaceException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /**
     * {@code git worktree prune} in {@code repo}: drops the registrations of worktrees whose
     * directory is gone (what a process killed before it removed its worktree leaves behind).
     *
     * @throws WorkspaceException when git fails (after {@value #WORKTREE_ATTEMPTS} attempts) or times out
     */
    public void pruneWorktrees(Path repo) {
        Objects.requireNonNull(repo, "repo");
        worktreeGit(repo, List.of("worktree", "prune"), () -> {}).orThrow("pruning the worktrees of " + repo);
    }

    /**
     * Runs a {@code git worktree} command in {@code repo}: under the JVM-wide lock of the
     * repository, and again up to {@link #WORKTREE_ATTEMPTS} times in all while it fails,
     * after a pause of 25 ms doubling each time up to 400 ms (plus jitter) and {@code beforeRetry}.
     *
     * @return the last attempt's result (a timeout throws at once)
     */
    private GitCli.Result worktreeGit(Path repo, List<String> args, Runnable beforeRetry) {
        ReentrantLock lock = WORKTREE_LOCKS.computeIfAbsent(repo.toAbsolutePath().normalize(), k -> new ReentrantLock());
        GitCli.Result r = null;
        for (int attempt = 1; attempt <= WORKTREE_ATTEMPTS; attempt++) {
            if (attempt > 1) {
                log.debug("`git {}` in {} failed ({}); trying again, attempt {} of {}", String.join(" ", args), repo,
                        r.stderr().strip(), attempt, WORKTREE_ATTEMPTS);
                long pauseMs = Math.min(25L << (attempt - 2), 400) + ThreadLocalRandom.current().nextLong(25);
                try {
                    TimeUnit.MILLISECONDS.sleep(pauseMs);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return r;
                }
                beforeRetry.run();
            }
            lock.lock();
            try {
                r = git.run(repo, args);
            } finally {
                lock.unlock();
            }
            if (r.ok()) {
                return r;
            }
        }
        return r;
    }

    /** Builds {@link Workspaces}. */
    public static final class Builder {
        private Path stateDir = defaultStateDir();
        private String gitExecutable = "git";
        private Duration gitTimeout = GitCli.DEFAULT_TIMEOUT;

        private Builder() {}

        /** The state dir; runs go to {@code <stateDir>/runs/}. Default {@code ~/.harness4j}. */
        public Builder stateDir(Path value) {
            this.stateDir = Objects.requireNonNull(value, "stateDir");
            return this;
        }

        /** The git binary (a path or a name on {@code PATH}); default {@code git}. */
        public Builder gitExecutable(String value) {
            Objects.requireNonNull(value, "gitExecutable");
            if (value.isBlank()) {
                throw new IllegalArgumentException("gitExecutable must not be blank");
            }
            this.gitExecutable = value;
            return this;
        }

        /** How long one git command may take; default 10 minutes. */
        public Builder gitTimeout(Duration value) {
            this.gitTimeout = Checks.positive(value, "gitTimeout");
            return this;
        }

        public Workspaces build() {
            return new Workspaces(this);
        }
    }
}
