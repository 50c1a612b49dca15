package dev.harness4j.core.queue;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The process that claimed a queue entry, identified so that a reused pid is not mistaken for
 * the owner: the pid, the process's start time in clock ticks since boot (field 22 of {@code
 * /proc/<pid>/stat}, stable for the life of the process) and, where {@code /proc} is missing,
 * its start instant as the JDK reports it.
 *
 * @param pid the owner's process id
 * @param startTicks the start time from {@code /proc/<pid>/stat}, or {@code null} off Linux
 * @param startedAt the start instant ({@link ProcessHandle.Info#startInstant()}), or {@code null}
 * @param host the host name the owner ran on
 */
public record Owner(long pid, Long startTicks, Instant startedAt, String host) {

    public Owner {
        if (pid <= 0) {
            throw new IllegalArgumentException("pid must be > 0, was " + pid);
        }
        Objects.requireNonNull(host, "host");
    }

    /** This JVM's process. */
    public static Owner current() {
        ProcessHandle self = ProcessHandle.current();
        return new Owner(self.pid(), startTicks(self.pid()).orElse(null),
                self.info().startInstant().orElse(null), hostName());
    }

    /**
     * Whether this owner is certainly dead: it ran on this host and its pid is gone, or the pid
     * now belongs to a process that started at another time (pid reuse). An owner on another
     * host is never declared dead (its liveness cannot be checked from here).
     */
    public boolean isDeadOnThisHost() {
        if (!host.equals(hostName())) {
            return false;
        }
        Optional<ProcessHandle> handle = ProcessHandle.of(pid);
        if (handle.isEmpty() || !handle.get().isAlive()) {
            return true;
        }
        if (startTicks != null) {
            Optional<Long> now = startTicks(pid);
            if (now.isPresent()) {
                return !now.get().equals(startTicks);
            }
        }
        if (startedAt != null) {
            Optional<Instant> now = handle.get().info().startInstant();
            // the JDK derives the instant from the boot time, which may drift by a second
            return now.isPresent() && Math.abs(now.get().toEpochMilli() - startedAt.toEpochMilli()) > 2_000;
        }
        return false;
    }

    /** The start time of a process in clock ticks since boot, from {@code /proc/<pid>/stat}. */
    static Optional<Long> startTicks(long pid) {
        Path stat = Path.of("/proc", Long.toString(pid), "stat");
        try {
            String text = Files.readString(stat, StandardCharsets.UTF_8);
            // the command name (field 2) may hold spaces and parentheses: fields resume after the last ')'
            String[] rest = text.substring(text.lastIndexOf(')') + 2).trim().split(" ");
            return Optional.of(Long.parseLong(rest[19])); // field 22; rest[0] is field 3
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    static String hostName() {
        try {
            String kernel = Files.readString(Path.of("/proc/sys/kernel/hostname"), StandardCharsets.UTF_8).strip();
            if (!kernel.isEmpty()) {
                return kernel;
            }
        } catch (IOException e) {
            // not Linux: ask the JDK
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "localhost";
        }
    }
}
