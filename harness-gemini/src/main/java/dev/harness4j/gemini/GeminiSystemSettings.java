package dev.harness4j.gemini;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Optional;
import java.util.Set;

/**
 * Whether Gemini CLI 0.61.0 will read a system settings file at a given place. It skips one
 * ("Security Warning: Skipping system settings file") unless the file and every directory above
 * it are owned by root (uid 0) and writable by neither group nor others. Then the adapter's
 * pinned settings are only user settings, and a task repo's {@code .gemini/settings.json} can
 * override them (usage statistics, telemetry, MCP servers). Reads file attributes only.
 */
final class GeminiSystemSettings {
    private GeminiSystemSettings() {}

    /**
     * Why Gemini CLI would skip a system settings file at {@code file}, or empty when it would
     * read it. Checks {@code file} when it exists, and every existing directory above it.
     */
    static Optional<String> skipReason(Path file) {
        Path p = file.toAbsolutePath().normalize();
        if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
            p = p.getParent();
        }
        for (; p != null; p = p.getParent()) {
            if (!Files.exists(p)) {
                continue;
            }
            try {
                Object uid = Files.getAttribute(p, "unix:uid");
                if (!(uid instanceof Integer u) || u != 0) {
                    return Optional.of("'" + p + "' is not owned by root (uid " + uid + ")");
                }
                Set<PosixFilePermission> perms = Files.getPosixFilePermissions(p);
                if (perms.contains(PosixFilePermission.GROUP_WRITE) || perms.contains(PosixFilePermission.OTHERS_WRITE)) {
                    return Optional.of("'" + p + "' is writable by group or others");
                }
            } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
                return Optional.of("the owner and mode of '" + p + "' could not be read (" + e.getMessage() + ")");
            }
        }
        return Optional.empty();
    }
}
