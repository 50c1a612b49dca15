package dev.harness4j.aider;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Real git repositories and commands for tests (no mocks). */
final class GitRepos {
    private GitRepos() {}

    /** A repository with one commit (README.md), made without touching any global config. */
    static Path baseline(Path dir) throws Exception {
        Files.createDirectories(dir);
        git(dir, "init", "-q", "-b", "main");
        Files.writeString(dir.resolve("README.md"), "base\n");
        git(dir, "add", ".");
        git(dir, "-c", "user.name=Base", "-c", "user.email=base@example.com", "commit", "-q", "-m", "init");
        return dir;
    }

    /** Runs git in {@code dir} and returns its stdout; fails on a non-zero exit. */
    static String git(Path dir, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("git", "-C", dir.toString()));
        cmd.addAll(List.of(args));
        return run(cmd, Map.of(), dir);
    }

    /** Runs a command and returns its stdout; fails on a non-zero exit or after 60 s. */
    static String run(List<String> cmd, Map<String, String> env, Path cwd) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(cwd.toFile()).redirectErrorStream(true);
        pb.environment().keySet().removeIf(k -> k.startsWith("GIT_CONFIG") || k.equals("GIT_DIR"));
        pb.environment().put("GIT_CONFIG_NOSYSTEM", "1");
        pb.environment().putAll(env);
        Process p = pb.start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("timed out after 60 s: " + cmd);
        }
        String text = new String(out, StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            throw new IOException("exit " + p.exitValue() + " from " + cmd + ":\n" + text);
        }
        return text;
    }
}
