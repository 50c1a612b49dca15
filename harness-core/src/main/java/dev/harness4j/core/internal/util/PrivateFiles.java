package dev.harness4j.core.internal.util;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Creates a run's private files and directories readable by their owner only ({@code 0600},
 * {@code 0700}): a live run's output is not redacted yet, and its scratch files may name
 * secrets. On a file system without POSIX permissions the platform's defaults apply.
 */
public final class PrivateFiles {
    private static final boolean POSIX = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
    private static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> DIR = PosixFilePermissions.fromString("rwx------");

    private PrivateFiles() {}

    /** Creates (or truncates) a file with mode {@code 0600} and opens it for writing. */
    public static OutputStream newOutputStream(Path file) throws IOException {
        create(file);
        return Files.newOutputStream(file, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
    }

    /** Creates the file with mode {@code 0600} if it does not exist; an existing one is made {@code 0600}. */
    public static Path create(Path file) throws IOException {
        try {
            return POSIX ? Files.createFile(file, attribute(FILE)) : Files.createFile(file);
        } catch (FileAlreadyExistsException e) {
            if (POSIX) {
                Files.setPosixFilePermissions(file, FILE);
            }
            return file;
        }
    }

    /** Creates a directory (and missing parents, with the default mode) with mode {@code 0700}; an existing one is made {@code 0700}. */
    public static Path createDirectory(Path dir) throws IOException {
        if (dir.getParent() != null) {
            Files.createDirectories(dir.getParent());
        }
        try {
            return POSIX ? Files.createDirectory(dir, attribute(DIR)) : Files.createDirectory(dir);
        } catch (FileAlreadyExistsException e) {
            if (POSIX && Files.isDirectory(dir)) {
                Files.setPosixFilePermissions(dir, DIR);
            }
            return dir;
        }
    }

    private static FileAttribute<Set<PosixFilePermission>> attribute(Set<PosixFilePermission> perms) {
        return PosixFilePermissions.asFileAttribute(perms);
    }
}
