package dev.harness4j.core.queue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds and kills the processes whose environment carries {@code HARNESS4J_RUN_ID=<runId>}, by
 * scanning {@code /proc/<pid>/environ}. A stand-in with the same contract as {@code
 * dev.harness4j.core.process.RunMarker} until that lands; pure functions over {@code /proc}.
 */
final class MarkerScan {
    static final String ENV = "HARNESS4J_RUN_ID";

    private MarkerScan() {}

    static List<ProcessHandle> find(String runId) {
        byte[] needle = (ENV + "=" + runId).getBytes(StandardCharsets.UTF_8);
        List<ProcessHandle> out = new ArrayList<>();
        long self = ProcessHandle.current().pid();
        try (DirectoryStream<Path> procs = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
            for (Path p : procs) {
                long pid;
                try {
                    pid = Long.parseLong(p.getFileName().toString());
                } catch (NumberFormatException e) {
                    continue;
                }
                if (pid == self) {
                    continue;
                }
                byte[] env;
                try {
                    env = Files.readAllBytes(p.resolve("environ"));
                } catch (IOException | SecurityException e) {
                    continue; // gone, or not ours to read
                }
                if (containsEntry(env, needle)) {
                    ProcessHandle.of(pid).ifPresent(out::add);
                }
            }
        } catch (IOException e) {
            return out; // no /proc: nothing to find
        }
        return out;
    }

    static int killAll(String runId, Duration grace) {
        List<ProcessHandle> found = find(runId);
        if (found.isEmpty()) {
            return 0;
        }
        found.forEach(ProcessHandle::destroy);
        long deadline = System.nanoTime() + grace.toNanos();
        for (ProcessHandle h : found) {
            long left = deadline - System.nanoTime();
            if (left > 0) {
                try {
                    h.onExit().get(left, java.util.concurrent.TimeUnit.NANOSECONDS);
                } catch (Exception e) {
                    // still alive after the grace: killed below
                }
            }
        }
        found.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
        for (ProcessHandle h : find(runId)) {
            h.destroyForcibly(); // children started during the grace
        }
        return found.size();
    }

    /** Whether a NUL-separated environment block holds exactly the entry {@code needle}. */
    private static boolean containsEntry(byte[] env, byte[] needle) {
        int start = 0;
        for (int i = 0; i <= env.length; i++) {
            if (i == env.length || env[i] == 0) {
                if (i - start == needle.length && java.util.Arrays.equals(env, start, i, needle, 0, needle.length)) {
                    return true;
                }
                start = i + 1;
            }
        }
        return false;
    }
}
