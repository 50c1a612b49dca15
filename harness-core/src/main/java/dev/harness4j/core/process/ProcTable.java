package dev.harness4j.core.process;

import java.io.FileInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * Reads Linux's {@code /proc} to find the live (non-zombie) processes of one run: those whose
 * environment carries the run marker, and optionally those in the run's session or process
 * group. Pure functions over the file system; no state.
 */
final class ProcTable {
    private static final Path PROC = Path.of("/proc");
    private static final int ENVIRON_READ_LIMIT = 1 << 20;
    private static final int STAT_PGRP = 2;
    private static final int STAT_SESSION = 3;
    private static final int STAT_FLAGS = 6;
    private static final int STAT_STARTTIME = 19;
    private static final long PF_KTHREAD = 0x00200000L;
    /**
     * How long one scan keeps re-reading environments that read as empty. A process in the middle
     * of {@code execve} has an empty {@code /proc/<pid>/environ} for a moment (the kernel has
     * switched to the new memory map but not yet recorded where its environment lies): read once,
     * a run's process that has just left the run's session with {@code setsid} and is exec'ing
     * its next program would be missed. The window is microseconds, but a process preempted
     * inside it on a loaded machine can stay there for tens of milliseconds.
     */
    private static final long EMPTY_ENVIRON_RETRY_NANOS = 200_000_000L;

    private ProcTable() {}


    /**
     * The pids of live processes that carry {@code RunMarker.ENV=runId} (and {@code
     * RunMarker.SCOPE_ENV=scope} when {@code scope} is not null), or whose session or
     * process group is {@code leader} (ignored when {@code leader <= 0}). Never this JVM. Only
     * processes that started at or after {@code notBefore} (in {@code /proc} clock ticks since
     * boot, see {@link #startTime}) have their environment read: an older one cannot descend
     * from the run.
     */
    static List<Long> scan(String runId, String scope, long leader, long notBefore) {
        byte[] needle = (RunMarker.ENV + "=" + runId).getBytes(StandardCharsets.UTF_8);
        byte[] scopeNeedle = scope == null ? null : (RunMarker.SCOPE_ENV + "=" + scope).getBytes(StandardCharsets.UTF_8);
        long self = ProcessHandle.current().pid();
        String[] names = PROC.toFile().list();
        if (names == null) {
            throw new IllegalStateException("could not list /proc to find the processes of run " + runId
                    + " (harness4j needs Linux with /proc mounted)");
        }
        Reader reader = new Reader();
        List<Long> out = new ArrayList<>();
        long retryDeadline = System.nanoTime() + EMPTY_ENVIRON_RETRY_NANOS;
        for (String name : names) {
            long pid = parsePid(name);
            if (pid <= 0 || pid == self) {
                continue;
            }
            long[] stat = stat(reader, name);
            if (stat == null) {
                continue; // gone, or a zombie: nothing left to stop
            }
            if (leader > 0 && (stat[0] == leader || stat[1] == leader)) {
                out.add(pid);
            } else if (stat[2] >= notBefore && (stat[3] & PF_KTHREAD) == 0
                    && hasMarker(reader, name, needle, scopeNeedle, retryDeadline)) {
                out.add(pid);
            }
        }
        return out;
    }

    /** When the process started, in clock ticks since boot; 0 when it is gone (so nothing is skipped). */
    static long startTime(long pid) {
        long[] stat = stat(new Reader(), Long.toString(pid));
        return stat == null ? 0 : stat[2];
    }

    private static long parsePid(String name) {
        if (name.isEmpty() || name.length() > 10) {
            return -1;
        }
        for (int i = 0; i < name.length(); i++) {
            if (name.charAt(i) < '0' || name.charAt(i) > '9') {
                return -1;
            }
        }
        return Long.parseLong(name);
    }

    /** {pgrp, session, starttime, flags} of a live process, or null when it is gone or a zombie. */
    static long[] stat(Reader reader, String pid) {
        int n = reader.read("/proc/" + pid + "/stat", 4096);
        if (n <= 0) {
            return null;
        }
        byte[] b = reader.buf;
        int close = n - 1;
        while (close >= 0 && b[close] != ')') {
            close--;
        }
        // after "pid (comm) ", space-separated: state ppid pgrp session ... starttime (index 19)
        int i = close + 2;
        if (close < 0 || i >= n || b[i] == 'Z' || b[i] == 'X') {
            return null;
        }
        long[] out = new long[4];
        int field = 0;
        long value = 0;
        for (; i <= n; i++) {
            if (i == n || b[i] == ' ' || b[i] == '\n') {
                if (field == STAT_PGRP) {
                    out[0] = value;
                } else if (field == STAT_SESSION) {
                    out[1] = value;
                } else if (field == STAT_FLAGS) {
                    out[3] = value;
                } else if (field == STAT_STARTTIME) {
                    out[2] = value;
                    return out;
                }
                field++;
                value = 0;
            } else if (b[i] >= '0' && b[i] <= '9') {
                value = value * 10 + (b[i] - '0');
            }
        }
        return null;
    }

    /**
     * Whether the process's environment holds {@code needle} (and {@code scopeNeedle}, when not
     * null). An empty environment is read again
     * (1 ms apart, until {@code retryDeadline}, shared by the whole scan) while the process still
     * lives: see {@link #EMPTY_ENVIRON_RETRY_NANOS}.
     */
    private static boolean hasMarker(Reader reader, String pid, byte[] needle, byte[] scopeNeedle, long retryDeadline) {
        String file = "/proc/" + pid + "/environ";
        int n = reader.read(file, ENVIRON_READ_LIMIT);
        while (n == 0 && System.nanoTime() < retryDeadline && stat(reader, pid) != null) {
            LockSupport.parkNanos(1_000_000L);
            n = reader.read(file, ENVIRON_READ_LIMIT);
        }
        return holds(reader.buf, n, needle) && (scopeNeedle == null || holds(reader.buf, n, scopeNeedle));
    }

    /** Whether one of the NUL-separated entries of {@code env[0..n)} is exactly {@code entry}. */
    private static boolean holds(byte[] env, int n, byte[] entry) {
        int from = 0;
        while (from + entry.length <= n) {
            int end = indexOf(env, n, (byte) 0, from);
            int entryEnd = end < 0 ? n : end;
            if (entryEnd - from == entry.length && Arrays.equals(env, from, entryEnd, entry, 0, entry.length)) {
                return true;
            }
            if (end < 0) {
                break;
            }
            from = end + 1;
        }
        return false;
    }

    private static int indexOf(byte[] a, int n, byte b, int from) {
        for (int i = from; i < n; i++) {
            if (a[i] == b) {
                return i;
            }
        }
        return -1;
    }

    /** Reads small /proc files into one reused buffer. */
    static final class Reader {
        byte[] buf = new byte[16 * 1024];

        /** Bytes read into {@link #buf} (at most {@code limit}); -1 when the file cannot be read. */
        int read(String file, int limit) {
            try (FileInputStream in = new FileInputStream(file)) {
                int n = 0;
                while (true) {
                    if (n == buf.length) {
                        if (buf.length >= limit) {
                            return n;
                        }
                        buf = Arrays.copyOf(buf, Math.min(limit, buf.length * 2));
                    }
                    int r = in.read(buf, n, buf.length - n);
                    if (r < 0) {
                        return n;
                    }
                    n += r;
                }
            } catch (IOException | RuntimeException e) {
                return -1; // gone, or not readable by this user
            }
        }
    }
}
