package dev.harness4j.opencode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** Real git repositories and tree digests for the end-to-end tests. */
final class TestRepos {
    private TestRepos() {}

    /** A repository with one commit holding {@code README.md}. */
    static Path baseline(Path dir) throws Exception {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("README.md"), "# baseline\n");
        git(dir, "init", "-q", "-b", "main");
        git(dir, "add", "README.md");
        git(dir, "-c", "user.name=test", "-c", "user.email=test@example.com", "commit", "-q", "-m", "init");
        return dir;
    }

    private static void git(Path dir, String... args) throws Exception {
        List<String> cmd = new java.util.ArrayList<>(List.of("git", "-C", dir.toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.from(
                Path.of("/dev/null").toFile())).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("git " + String.join(" ", args) + " failed: " + out);
        }
    }

    /** Digests of the user's own opencode dirs ({@code absent} when a dir does not exist). */
    static Map<String, String> userOpencodeTrees() {
        Path home = Path.of(System.getProperty("user.home"));
        Map<String, String> out = new LinkedHashMap<>();
        for (String rel : List.of(".config/opencode", ".local/share/opencode", ".local/state/opencode",
                ".cache/opencode")) {
            out.put(rel, treeDigest(home.resolve(rel)));
        }
        return out;
    }

    /** A digest over every path, file size, content and mtime below {@code dir}; {@code absent} if none. */
    static String treeDigest(Path dir) {
        if (!Files.exists(dir)) {
            return "absent";
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            for (Path p : walk.sorted().toList()) {
                md.update(dir.relativize(p).toString().getBytes());
                md.update((byte) 0);
                if (Files.isRegularFile(p)) {
                    md.update(Files.readAllBytes(p));
                    md.update(Long.toString(Files.getLastModifiedTime(p).toMillis()).getBytes());
                }
            }
            return HexFormat.of().formatHex(md.digest());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
