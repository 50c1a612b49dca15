package dev.harness4j.core.stages;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.harness4j.api.Login;
import dev.harness4j.core.internal.util.PrivateFiles;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The login probe's clear answers on disk, one file per configuration key under the state dir,
 * so that the first run of a new runner (or process) on this machine need not probe again within
 * the cache's lifetime. Never fails a run: a file that cannot be read or written is ignored.
 */
final class LoginCacheFile {
    private static final Logger log = LoggerFactory.getLogger(LoginCacheFile.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private LoginCacheFile() {}

    /** The answer kept for {@code key}, or null when there is none, it expired, or it cannot be read. */
    static Login read(Path dir, String key, Duration ttl) {
        if (ttl.isZero()) {
            return null;
        }
        Path file = dir.resolve(key + ".json");
        try {
            if (!Files.isRegularFile(file)) {
                return null;
            }
            JsonNode n = JSON.readTree(file.toFile());
            long expires = n.path("expires_at_ms").asLong(0);
            long now = System.currentTimeMillis();
            if (now >= expires || expires - now > ttl.toMillis()) { // expired, or kept longer than this runner allows
                return null;
            }
            return new Login(Login.Status.valueOf(n.path("status").asText()), text(n, "auth_method"),
                    text(n, "api_provider"), text(n, "key_source"), text(n, "account"), text(n, "subscription"));
        } catch (IOException | RuntimeException e) {
            log.debug("login cache file {} ignored: {}", file, e.toString());
            return null;
        }
    }

    /** Keeps a clear answer for {@code ttl} (written whole: a temp file renamed into place). */
    static void write(Path dir, String key, Login login, Duration ttl) {
        try {
            Files.createDirectories(dir);
            ObjectNode n = JSON.createObjectNode();
            n.put("status", login.status().name());
            n.put("auth_method", login.authMethod());
            n.put("api_provider", login.apiProvider());
            n.put("key_source", login.keySource());
            n.put("account", login.account());
            n.put("subscription", login.subscription());
            n.put("expires_at_ms", System.currentTimeMillis() + ttl.toMillis());
            Path tmp = dir.resolve(key + "." + ProcessHandle.current().pid() + "." + Thread.currentThread().getId() + ".tmp");
            try (OutputStream out = PrivateFiles.newOutputStream(tmp)) {
                JSON.writeValue(out, n);
            }
            Files.move(tmp, dir.resolve(key + ".json"), StandardCopyOption.REPLACE_EXISTING,
                    StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException | RuntimeException e) {
            log.debug("could not keep the login answer in {}: {}", dir, e.toString());
        }
    }

    /** The binary's real path, size and modification time: a reinstalled CLI probes again. */
    static String identity(Path executable) {
        try {
            Path real = executable.toRealPath();
            return real + ":" + Files.size(real) + ":" + Files.getLastModifiedTime(real).toMillis();
        } catch (IOException | RuntimeException e) {
            return executable.toString();
        }
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }
}
