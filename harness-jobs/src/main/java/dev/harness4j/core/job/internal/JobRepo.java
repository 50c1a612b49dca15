package dev.harness4j.core.job.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A job's own git repository, {@code jobs/<id>/repo}: a clone of the baseline whose branch
 * {@code harness4j/job/<id>} advances with each completed phase. Its working tree is checked out
 * at the branch between phases; each phase's run isolates it like any baseline, and the run's
 * commits are fetched back into {@code refs/harness4j/runs/<runId>} before the run's checkout is
 * deleted. Uses the {@code git} binary, each command within {@link #GIT_TIMEOUT}.
 */
public final class JobRepo {
    /** How long one git command may take: 2 minutes. */
    public static final Duration GIT_TIMEOUT = Duration.ofMinutes(2);
    /** The identity of commits the job makes (work an agent left uncommitted). */
    static final List<String> IDENTITY = List.of("-c", "user.name=harness4j", "-c", "user.email=harness4j@localhost");

    private final Path dir;
    private final String branch;

    public JobRepo(Path dir, String branch) {
        this.dir = dir;
        this.branch = branch;
    }

    public Path dir() {
        return dir;
    }

    /** The commit {@code ref} names in {@code repo} ({@code HEAD} when null). */
    public static String resolve(Path repo, String ref) {
        return git(repo, "rev-parse", "--verify", "--quiet", (ref == null ? "HEAD" : ref) + "^{commit}").trim();
    }

    /** Clones {@code baseline} into {@link #dir()} and checks out {@code commit} on the job's branch. */
    public void create(Path baseline, String commit) {
        git(dir.getParent(), "clone", "--quiet", "--no-checkout", baseline.toString(), dir.toString());
        git(dir, "checkout", "--quiet", "-B", branch, commit);
        // the job repository's origin is the baseline's: a phase run's pushed branch, and the job's, go
        // where the baseline's would, never into the baseline itself
        String url = originOf(baseline);
        if (url != null) {
            git(dir, "remote", "set-url", "origin", url);
        } else {
            git(dir, "remote", "remove", "origin");
        }
    }

    /** The URL of a repository's {@code origin}, or null when it has none. */
    static String originOf(Path repo) {
        Result r = run(repo, "config", "--get", "remote.origin.url");
        return r.exit == 0 && !r.output.isBlank() ? r.output.trim() : null;
    }

    /** Whether the repository is there and readable. */
    public boolean present() {
        if (!Files.isDirectory(dir.resolve(".git"))) {
            return false;
        }
        try {
            git(dir, "rev-parse", "--verify", "--quiet", branch + "^{commit}");
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** Puts the branch, the index and the working tree at {@code commit}; removes untracked files. */
    public void resetTo(String commit) {
        git(dir, "checkout", "--quiet", "--force", "-B", branch, commit);
        git(dir, "clean", "-fdxq");
    }

    /** The commit a ref names, or null. */
    public String commitOf(String ref) {
        try {
            return git(dir, "rev-parse", "--verify", "--quiet", ref + "^{commit}").trim();
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** The ref a run's commits are fetched into. */
    public static String runRef(String runId) {
        return "refs/harness4j/runs/" + runId;
    }

    /**
     * Takes a run's work into this repository: what the agent left uncommitted (outside {@code
     * .harness4j/}) is committed in the run's checkout first, then its HEAD is fetched into
     * {@link #runRef}.
     *
     * @return the fetched commit, and whether leftovers were committed
     */
    public Collected collect(Path workspace, String runId, String phaseId) {
        git(workspace, "add", "-A", "--", ".", ":(exclude).harness4j");
        boolean leftovers = exit(workspace, "diff", "--cached", "--quiet") != 0;
        if (leftovers) {
            List<String> args = new ArrayList<>(IDENTITY);
            args.addAll(List.of("commit", "--quiet", "--no-verify", "-m",
                    "phase " + phaseId + ": work the agent left uncommitted (committed by harness4j)"));
            git(workspace, args.toArray(String[]::new));
        }
        git(dir, "fetch", "--quiet", "--no-tags", workspace.toString(), "+HEAD:" + runRef(runId));
        return new Collected(commitOf(runRef(runId)), leftovers);
    }

    /** What {@link #collect} took: the run's last commit and whether the job committed leftovers. */
    public record Collected(String commit, boolean leftovers) {}

    /** The commit subjects from {@code from} (exclusive) to {@code to}, oldest first. */
    public List<String> subjects(String from, String to) {
        String out = git(dir, "log", "--reverse", "--format=%s", from + ".." + to);
        return out.isBlank() ? List.of() : List.of(out.strip().split("\n"));
    }

    /** Pushes the job's branch to {@code remote} as {@code target}. */
    public void push(String remote, String target) {
        git(dir, "push", "--quiet", remote, "+refs/heads/" + branch + ":refs/heads/" + target);
    }

    static String git(Path cwd, String... args) {
        Result r = run(cwd, args);
        if (r.exit != 0) {
            throw new UncheckedIOException(new IOException("git " + String.join(" ", args) + " in " + cwd
                    + " failed (exit " + r.exit + "): " + r.output.strip()));
        }
        return r.output;
    }

    private static int exit(Path cwd, String... args) {
        return run(cwd, args).exit;
    }

    private record Result(int exit, String output) {}

    private static Result run(Path cwd, String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add("git");
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(cwd.toFile()).redirectErrorStream(true);
        Map<String, String> env = pb.environment();
        env.put("GIT_TERMINAL_PROMPT", "0");
        env.remove("GIT_DIR");
        env.remove("GIT_WORK_TREE");
        try {
            Process p = pb.start();
            p.getOutputStream().close();
            // drained on another thread, so that a git that hangs with its output open still times out
            java.util.concurrent.CompletableFuture<byte[]> out = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                try (var in = p.getInputStream()) {
                    return in.readAllBytes();
                } catch (IOException e) {
                    return new byte[0];
                }
            });
            if (!p.waitFor(GIT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                throw new UncheckedIOException(new IOException("git " + String.join(" ", args) + " in " + cwd
                        + " took longer than " + GIT_TIMEOUT.toSeconds() + " s; stopped"));
            }
            byte[] bytes;
            try {
                bytes = out.get(GIT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                bytes = new byte[0];
            }
            return new Result(p.exitValue(), new String(bytes, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("could not run git " + String.join(" ", args) + " in " + cwd, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UncheckedIOException(new IOException("interrupted while running git " + args[0], e));
        }
    }
}
