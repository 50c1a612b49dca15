package dev.harness4j.core.provider;

import dev.harness4j.core.internal.util.FileLocks;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Edits a providers file under a lock that any number of threads and processes share: adds one
 * provider ({@link #add}, what {@code harness4j providers add} does) or changes one provider's
 * {@code models} ({@link Providers#refresh}); and the atomic write both this and {@link
 * ProvidersFile#write} use.
 *
 * <pre>{@code
 * ProvidersFileEdit.add(ProvidersFile.in(stateDir), ProviderConfig.builder("anthropic")
 *         .apiStyles(ApiStyle.ANTHROPIC).baseUrl("https://api.anthropic.com")
 *         .key("ANTHROPIC_API_KEY", AuthScheme.API_KEY).build());
 * }</pre>
 *
 * <p>The edit is made in the file's text: the new entry is put after the last one, or the {@code
 * models} array's characters are replaced (or the field added when the entry has none), so field
 * order, omitted defaults, formatting and the other providers stay byte for byte. The write goes to a temp file beside the real file (a
 * symlink is followed to its target, which is what gets replaced), with the old file's POSIX
 * permissions, then renamed over it.
 *
 * <p>The lock is an exclusive OS file lock on {@code <real file>.lock} around the
 * read-modify-write, taken inside one JVM under a JVM-wide striped lock, as {@code
 * core.queue.FileQueueStore} does (OS file locks belong to the whole JVM). The lock file is never
 * deleted (see FileQueueStore for why).
 */
public final class ProvidersFileEdit {
    /** How long a refresh waits for another writer's lock on the providers file: 10 s. */
    static final Duration LOCK_TIMEOUT = Duration.ofSeconds(10);

    /** The suffix of the lock file beside the providers file: {@value}. */
    static final String LOCK_SUFFIX = ".lock";

    private ProvidersFileEdit() {}

    /**
     * Sets the {@code models} of provider {@code name} in {@code file}, under the file's lock.
     *
     * @return whether the provider was in the file (when not, nothing was written)
     * @throws ProviderConfigException when the file is unreadable or invalid, the lock stays
     *     taken for {@link #LOCK_TIMEOUT}, or the write fails
     */
    static boolean replaceModels(Path file, String name, List<String> models) {
        Path target = realTarget(file);
        return locked(target, () -> {
            List<ProviderConfig> before = ProvidersFile.read(target); // validates, names the file on failure
            if (before.stream().noneMatch(c -> c.name().equals(name))) {
                return false;
            }
            String text;
            try {
                text = Files.readString(target, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new ProviderConfigException(file, "could not read provider config " + target + ": " + e, e);
            }
            String edited = ProvidersFileText.withModels(text, name, models);
            List<ProviderConfig> expected = before.stream()
                    .map(c -> c.name().equals(name) ? c.withModels(models) : c).toList();
            writeAtomically(target, edited.getBytes(StandardCharsets.UTF_8), expected);
            return true;
        });
    }

    /**
     * Adds provider {@code config} to {@code file} under the file's lock, after the providers
     * already there (which stay byte for byte); a missing file is created. A provider with {@code
     * prices} or the CLI's own login is not taken: write those in the file by hand.
     *
     * @throws ProviderConfigException when the file is unreadable or invalid, already has a
     *     provider of that name, the lock stays taken for {@link #LOCK_TIMEOUT}, or the write fails;
     *     nothing was written then
     * @throws IllegalArgumentException for a provider with prices or the CLI's own login
     */
    public static void add(Path file, ProviderConfig config) {
        Objects.requireNonNull(config, "config");
        if (config.cliLogin() || !config.prices().isEmpty()) {
            throw new IllegalArgumentException("provider '" + config.name() + "': only an endpoint without prices can"
                    + " be added this way; write a CLI-login provider or prices in the providers file itself");
        }
        Path target = realTarget(file);
        try {
            Files.createDirectories(target.getParent()); // the lock file's directory
        } catch (IOException e) {
            throw new ProviderConfigException(file, "could not create the directory of " + target + ": " + e, e);
        }
        locked(target, () -> {
            if (!Files.exists(target)) {
                ProvidersFile.write(target, List.of(config));
                return null;
            }
            List<ProviderConfig> before = ProvidersFile.read(target); // validates, names the file on failure
            if (before.stream().anyMatch(c -> c.name().equals(config.name()))) {
                throw new ProviderConfigException(file, "provider config " + target + " already has a provider '"
                        + config.name() + "'; nothing was written. Choose another name, or change or remove that"
                        + " entry in the file");
            }
            String text;
            try {
                text = Files.readString(target, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new ProviderConfigException(file, "could not read provider config " + target + ": " + e, e);
            }
            List<ProviderConfig> expected = new ArrayList<>(before);
            expected.add(config);
            writeAtomically(target, ProvidersFileText.withEntry(text, config).getBytes(StandardCharsets.UTF_8), expected);
            return null;
        });
    }

    /** The file a path names: a symlink's final target (the file replaced by a write), else the path. */
    static Path realTarget(Path file) {
        try {
            return Files.exists(file) ? file.toRealPath() : file.toAbsolutePath();
        } catch (IOException e) {
            throw new ProviderConfigException(file, "could not resolve provider config " + file + ": " + e, e);
        }
    }

    /**
     * Writes bytes to {@code target} atomically: a temp file in the same directory with the old
     * file's permissions, forced to disk, renamed over it. With {@code expected}, the temp file
     * must read back as exactly those providers first.
     */
    static void writeAtomically(Path target, byte[] bytes, List<ProviderConfig> expected) {
        Path dir = target.toAbsolutePath().getParent();
        Path tmp = null;
        try {
            Files.createDirectories(dir);
            tmp = Files.createTempFile(dir, target.getFileName().toString() + ".", ".tmp");
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                ch.write(ByteBuffer.wrap(bytes));
                ch.force(true);
            }
            keepPermissions(target, tmp);
            if (expected != null && !ProvidersFile.read(tmp).equals(expected)) {
                throw new IllegalStateException("the edited providers file does not read back as intended");
            }
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            tmp = null;
        } catch (IOException e) {
            throw new ProviderConfigException(target, "could not write provider config " + target + ": " + e, e);
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // best effort: the temp file has a unique name and holds no secret
                }
            }
        }
    }

    private static void keepPermissions(Path old, Path tmp) throws IOException {
        if (!Files.exists(old)) {
            return;
        }
        PosixFileAttributeView from = Files.getFileAttributeView(old, PosixFileAttributeView.class);
        PosixFileAttributeView to = Files.getFileAttributeView(tmp, PosixFileAttributeView.class);
        if (from != null && to != null) {
            Set<PosixFilePermission> mode = from.readAttributes().permissions();
            to.setPermissions(mode);
        }
    }

    private static <T> T locked(Path target, Supplier<T> body) {
        Path lock = target.resolveSibling(target.getFileName() + LOCK_SUFFIX);
        try {
            return FileLocks.withLock(lock, LOCK_TIMEOUT, () -> lockTimeout(target, lock), body::get);
        } catch (IOException e) {
            throw new ProviderConfigException(target, "could not lock provider config " + lock + ": " + e, e);
        }
    }

    private static ProviderConfigException lockTimeout(Path target, Path lock) {
        return new ProviderConfigException(target, "provider config " + target + " stayed locked by another writer"
                + " for more than " + LOCK_TIMEOUT.toMillis() + " ms (is a refresh stuck? its lock file is " + lock
                + "); nothing was written");
    }
}
