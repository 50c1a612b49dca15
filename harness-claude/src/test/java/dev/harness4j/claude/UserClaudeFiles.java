package dev.harness4j.claude;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** Checksums of the user's own {@code ~/.claude} tree and {@code ~/.claude.json}, to prove runs leave them alone. */
final class UserClaudeFiles {
    private UserClaudeFiles() {}

    /** Path → sha-256 (or "dir" / "absent") for {@code ~/.claude.json} and everything under {@code ~/.claude}. */
    static Map<String, String> checksums() throws IOException {
        Path home = Path.of(System.getProperty("user.home"));
        Map<String, String> out = new TreeMap<>();
        Path json = home.resolve(".claude.json");
        out.put(".claude.json", Files.exists(json) ? sha256(json) : "absent");
        Path dir = home.resolve(".claude");
        if (!Files.exists(dir)) {
            out.put(".claude", "absent");
            return out;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                String rel = ".claude/" + dir.relativize(p);
                out.put(rel, Files.isDirectory(p) ? "dir" : sha256(p));
            }
        }
        return out;
    }

    private static String sha256(Path file) throws IOException {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
