package dev.harness4j.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Real git repositories for tests, made with the git binary: a baseline to run an agent on, a
 * file written and committed, and a fingerprint that proves a baseline was not touched. The one
 * git fixture of the project's tests outside harness-core (whose own tests cannot depend on the
 * testkit, which depends on core).
 *
 * <pre>{@code
 * Path repo = GitRepos.withReadme(tempDir.resolve("repo"));
 * Map<String, String> before = GitRepos.fingerprint(repo);
 * ... run an agent on repo ...
 * assertThat(GitRepos.fingerprint(repo)).isEqualTo(before);
 * }</pre>
 */
public final class GitRepos {
    /** How long one git command may take: 60 s. */
    public static final long GIT_TIMEOUT_SECONDS = 60;

    private GitRepos() {}

    /**
     * Runs git in {@code dir} with a fixed identity and no inherited {@code GIT_*} variables.
     *
     * @return its output (stdout and stderr), stripped
     * @throws IllegalStateException on a non-zero exit or when git does not end within
     *     {@link #GIT_TIMEOUT_SECONDS}
     */
    public static String git(Path dir, String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add("git");
        cmd.addAll(List.of(args));
        Process p = null;
        try {
            ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true);
            pb.environment().keySet().removeIf(k -> k.startsWith("GIT_"));
            pb.environment().putAll(identity());
            p = pb.start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(GIT_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException(String.join(" ", cmd) + " in " + dir + " did not end within "
                        + GIT_TIMEOUT_SECONDS + " s");
            }
            if (p.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", cmd) + " in " + dir + " exited " + p.exitValue()
                        + ": " + out);
            }
            return out.strip();
        } catch (IOException e) {
            throw new UncheckedIOException("could not run " + String.join(" ", cmd) + " in " + dir, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + String.join(" ", cmd), e);
        } finally {
            if (p != null) {
                p.destroyForcibly();
            }
        }
    }

    /** The author and committer the fixture's commits use. */
    public static Map<String, String> identity() {
        return Map.of("GIT_AUTHOR_NAME", "harness4j-test", "GIT_AUTHOR_EMAIL", "test@harness4j.dev",
                "GIT_COMMITTER_NAME", "harness4j-test", "GIT_COMMITTER_EMAIL", "test@harness4j.dev");
    }

    /** A fresh repository at {@code dir} on branch {@code main} with one commit holding {@code README.md}. */
    public static Path withReadme(Path dir) {
        return withFiles(dir, Map.of("README.md", "# baseline\n"));
    }

    /** A fresh repository at {@code dir} on branch {@code main} with one commit holding these files. */
    public static Path withFiles(Path dir, Map<String, String> files) {
        try {
            Files.createDirectories(dir);
            git(dir, "init", "-q", "-b", "main");
            for (Map.Entry<String, String> f : files.entrySet()) {
                write(dir, f.getKey(), f.getValue());
            }
            commitAll(dir, "initial");
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException("could not create the repository " + dir, e);
        }
    }

    /** Writes a file (and its parent dirs) in a repository's working tree. */
    public static void write(Path repo, String relativePath, String content) throws IOException {
        Path f = repo.resolve(relativePath);
        Files.createDirectories(f.getParent());
        Files.writeString(f, content, StandardCharsets.UTF_8);
    }

    /** Stages everything and commits it. */
    public static void commitAll(Path repo, String message) {
        git(repo, "add", "-A");
        git(repo, "commit", "-q", "-m", message);
    }

    /**
     * A fingerprint of everything a run must not change in a baseline: HEAD, refs (as git sees
     * them and as files), the index bytes, every working-tree file's bytes, the status and the
     * registered worktrees. Equal fingerprints before and after mean the baseline was not touched.
     */
    public static Map<String, String> fingerprint(Path repo) {
        Map<String, String> f = new TreeMap<>();
        try {
            Path dotGit = repo.resolve(".git");
            f.put("HEAD", Files.readString(dotGit.resolve("HEAD")));
            f.put("index", sha(Files.readAllBytes(dotGit.resolve("index"))));
            f.put("refs", git(repo, "for-each-ref", "--format=%(refname) %(objectname)"));
            if (Files.exists(dotGit.resolve("packed-refs"))) {
                f.put("packed-refs", Files.readString(dotGit.resolve("packed-refs")));
            }
            try (Stream<Path> s = Files.walk(dotGit.resolve("refs"))) {
                for (Path p : s.filter(Files::isRegularFile).toList()) {
                    f.put("reffile:" + dotGit.relativize(p), Files.readString(p));
                }
            }
            try (Stream<Path> s = Files.walk(repo)) {
                for (Path p : s.filter(Files::isRegularFile).filter(p -> !p.startsWith(dotGit)).toList()) {
                    f.put("file:" + repo.relativize(p), sha(Files.readAllBytes(p)));
                }
            }
            // --no-optional-locks: reading the status must not rewrite the index being fingerprinted
            f.put("status", git(repo, "--no-optional-locks", "status", "--porcelain", "--untracked-files=all"));
            f.put("worktrees", git(repo, "worktree", "list", "--porcelain").lines()
                    .filter(l -> l.startsWith("worktree ")).toList().toString());
        } catch (IOException e) {
            throw new UncheckedIOException("could not fingerprint " + repo, e);
        }
        return f;
    }

    private static String sha(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
