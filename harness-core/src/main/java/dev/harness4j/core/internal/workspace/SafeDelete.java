package dev.harness4j.core.internal.workspace;

import dev.harness4j.core.workspace.WorkspaceException;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Deletes a file tree only when it lies strictly below a root, judged on real paths; symbolic
 * links are deleted as links, never followed. Pure functions.
 */
public final class SafeDelete {
    private SafeDelete() {}

    /**
     * Deletes {@code target} and everything below it, if it exists.
     *
     * @throws WorkspaceException when the target's real location is not strictly below the
     *     root's real location, or when deleting fails
     */
    public static void deleteBelow(Path root, Path target) {
        Path abs = target.toAbsolutePath().normalize();
        if (!Files.exists(abs, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        Path rootReal;
        Path located;
        try {
            rootReal = root.toRealPath();
            Path parent = abs.getParent();
            if (parent == null) {
                throw new WorkspaceException("refusing to delete the file system root " + abs);
            }
            // the parent is resolved (symlinks followed), the last element is not: a link is deleted as a link
            located = parent.toRealPath().resolve(abs.getFileName());
        } catch (IOException e) {
            throw new WorkspaceException("could not resolve " + target + " below " + root + " for deletion", e);
        }
        if (!located.startsWith(rootReal) || located.equals(rootReal)) {
            throw new WorkspaceException("refusing to delete " + target + ": its real location " + located
                    + " is not below the state dir " + rootReal);
        }
        try {
            if (Files.isSymbolicLink(located) || !Files.isDirectory(located, LinkOption.NOFOLLOW_LINKS)) {
                Files.deleteIfExists(located);
                return;
            }
            Files.walkFileTree(located, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    delete(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException exc) throws IOException {
                    if (exc instanceof NoSuchFileException) {
                        return FileVisitResult.CONTINUE;
                    }
                    throw exc;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException exc) throws IOException {
                    if (exc != null && !(exc instanceof NoSuchFileException)) {
                        throw exc;
                    }
                    delete(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new WorkspaceException("could not delete " + located + ": " + e, e);
        }
    }

    private static void delete(Path p) throws IOException {
        try {
            Files.deleteIfExists(p);
        } catch (java.nio.file.AccessDeniedException e) {
            Path parent = p.getParent();
            if (parent != null) {
                parent.toFile().setWritable(true, true);
            }
            Files.deleteIfExists(p);
        }
    }
}
