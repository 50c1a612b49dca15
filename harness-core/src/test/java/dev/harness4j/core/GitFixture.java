package dev.harness4j.core;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** Real git repositories for tests, made with the git binary. */
public final class GitFixture {
    private GitFixture() {}

    /** Runs git in {@code dir} and returns its stdout; fails the test on a non-zero exit. */
    public static String git(Path dir, String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add("git");
        cmd.addAll(List.of(args));
        try {
            ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true);
            pb.environment().keySet().removeIf(k -> k.startsWith("GIT_"));
            pb.environment().putAll(identity());
            Process p = pb.start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int rc = p.waitFor();
            if (rc != 0) {
                throw new AssertionError(String.join(" ", cmd) + " in " + dir + " exited " + rc + ": " + out);
            }
            return out.strip();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    public static Map<String, String> identity() {
        return Map.of("GIT_AUTHOR_NAME", "Test", "GIT_AUTHOR_EMAIL", "test@example.com",
                "GIT_COMMITTER_NAME", "Test", "GIT_COMMITTER_EMAIL", "test@example.com");
    }

    /** A repository on branch {@code main} with one commit holding {@code README.md}. */
    public static Path repo(Path dir) {
        try {
            Files.createDirectories(dir);
            git(dir, "init", "-q", "-b", "main");
            write(dir, "README.md", "hello\n");
            write(dir, "src/app.txt", "line 1\nline 2\n");
            git(dir, "add", "-A");
            git(dir, "commit", "-q", "-m", "initial");
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static void write(Path repo, String rel, String content) throws IOException {
        Path f = repo.resolve(rel);
        Files.createDirectories(f.getParent());
        Files.writeString(f, content);
    }

    public static void commitAll(Path repo, String message) {
        git(repo, "add", "-A");
        git(repo, "commit", "-q", "-m", message);
    }

    /**
     * A fingerprint of everything a run must not change in a baseline: status, HEAD, refs (as
     * git sees them and as files), the index bytes, and every working-tree file's bytes.
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
            // --no-optional-locks: reading status must not rewrite the index we fingerprint
            f.put("status", git(repo, "--no-optional-locks", "status", "--porcelain", "--untracked-files=all"));
            f.put("worktrees", git(repo, "worktree", "list", "--porcelain").lines()
                    .filter(l -> l.startsWith("worktree ")).toList().toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return f;
    }

    private static String sha(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
