package dev.harness4j.claude;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Real git repositories for the end-to-end tests, made with the git CLI. */
final class GitRepos {
    /** How long one git command may take in a test: 30 s. */
    static final long GIT_TIMEOUT_SECONDS = 30;

    private GitRepos() {}

    /** A fresh repository at {@code dir} with one commit holding {@code README.md}. */
    static Path withReadme(Path dir) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        git(dir, "init", "-q", "-b", "main");
        Files.writeString(dir.resolve("README.md"), "# baseline\n");
        git(dir, "add", "README.md");
        git(dir, "-c", "user.name=harness4j-test", "-c", "user.email=test@harness4j.dev", "commit", "-q", "-m", "init");
        return dir;
    }

    static void git(Path dir, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("git"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        p.getInputStream().transferTo(OutputStream.nullOutputStream());
        if (!p.waitFor(GIT_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("git " + String.join(" ", args) + " did not finish within "
                    + GIT_TIMEOUT_SECONDS + " s");
        }
        if (p.exitValue() != 0) {
            throw new IllegalStateException("git " + String.join(" ", args) + " failed with exit " + p.exitValue());
        }
    }
}
