package dev.harness4j.core.queue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A child JVM that holds OS locks on the given files (creating them and their directories) until
 * it is killed or its stdin closes: {@code LockHolder <file>...}. Prints {@code locked} once it
 * holds them all. {@link #start} launches one and waits for that line.
 */
public final class LockHolder {
    private LockHolder() {}

    public static void main(String[] args) throws Exception {
        List<FileLock> held = new ArrayList<>();
        for (String a : args) {
            Path f = Path.of(a);
            Files.createDirectories(f.getParent());
            FileChannel ch = FileChannel.open(f, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            held.add(ch.lock());
        }
        System.out.println("locked");
        System.out.flush();
        while (System.in.read() >= 0) {
            // hold until stdin closes
        }
    }

    /** Starts a holder of {@code files} and returns once it holds them. */
    static Process start(Path... files) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), LockHolder.class.getName()));
        for (Path f : files) {
            cmd.add(f.toString());
        }
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        if (!"locked".equals(line)) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new IllegalStateException("the lock holder did not lock " + List.of(files) + ": " + line);
        }
        return p;
    }

    /** Both places an entry's lock file has lived, so a test holds the real one on either layout. */
    static Path[] lockFilesOf(Path queueDir, String entryId) {
        return new Path[] {queueDir.resolve(entryId + ".lock"), queueDir.resolve("locks").resolve(entryId + ".lock")};
    }

    static void stop(Process p) throws InterruptedException {
        p.destroyForcibly();
        p.waitFor(10, TimeUnit.SECONDS);
    }
}
