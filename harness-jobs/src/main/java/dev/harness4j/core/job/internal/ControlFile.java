package dev.harness4j.core.job.internal;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.Optional;

/**
 * How processes sharing a state dir talk about a job: {@code jobs/<id>/lock}, held (an OS file
 * lock, gone with its process, even after {@code kill -9}) by the process running the job, and
 * {@code jobs/<id>/control}, where another process leaves {@code pause} or {@code cancel} for it.
 */
public final class ControlFile {
    public static final String LOCK = "lock";
    public static final String CONTROL = "control";

    private ControlFile() {}

    /** Tries the job's lock without waiting; null when another process (or this JVM) holds it. */
    public static FileLock tryLock(FileChannel ch) throws IOException {
        try {
            return ch.tryLock();
        } catch (OverlappingFileLockException e) {
            return null;
        }
    }

    /** Opens the job's lock file. */
    public static FileChannel openLock(Path jobDir) throws IOException {
        return FileChannel.open(jobDir.resolve(LOCK), java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.WRITE);
    }

    /** Leaves a request for the process running the job (atomically: tmp + rename). */
    public static void leave(Path jobDir, JobControl.Request request) throws IOException {
        Path tmp = jobDir.resolve(CONTROL + ".tmp");
        Files.writeString(tmp, request.name().toLowerCase(Locale.ROOT), StandardCharsets.UTF_8);
        Files.move(tmp, jobDir.resolve(CONTROL), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** Takes the request left for this job, if any (the file is removed). */
    public static Optional<JobControl.Request> take(Path jobDir) throws IOException {
        Path f = jobDir.resolve(CONTROL);
        if (!Files.exists(f)) {
            return Optional.empty();
        }
        String what = Files.readString(f, StandardCharsets.UTF_8).trim();
        Files.deleteIfExists(f);
        return Optional.of(what.equals("cancel") ? JobControl.Request.CANCEL : JobControl.Request.PAUSE);
    }

    /** Removes a request nobody took. */
    public static void clear(Path jobDir) throws IOException {
        Files.deleteIfExists(jobDir.resolve(CONTROL));
    }
}
