package dev.harness4j.core.process;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads Linux's {@code /proc} to find the live (non-zombie) processes of one run: those whose
 * environment carries the run marker, and optionally those in the run's session or process
 * group. Pure functions over the file system; no state.
 */
final class ProcTable {
    private static final Path PROC = Path.of("/proc");
    private static final int ENVIRON_READ_LIMIT = 1 << 20;

    private ProcTable() {}

    /**
     * The pids of live processes that carry {@code RunMarker.ENV=runId}, or whose session or
     * process group is {@code leader} (ignored when {@code leader <= 0}). Never this JVM.
     */
    static List<Long> scan(String runId, long leader) {
        byte[] needle = (RunMarker.ENV + "=" + runId).getBytes(StandardCharsets.UTF_8);
        long self = ProcessHandle.current().pid();
        List<Long> out = new ArrayList<>();
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(PROC)) {
            for (Path dir : dirs) {
                long pid = parsePid(dir.getFileName().toString());
                if (pid <= 0 || pid == self) {
                    continue;
                }
                long[] stat = stat(dir);
                if (stat == null) {
                    continue; // gone, or a zombie: nothing left to stop
                }
                if (leader > 0 && (stat[0] == leader || stat[1] == leader)) {
                    out.add(pid);
                } else if (hasMarker(dir, needle)) {
                    out.add(pid);
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("could not list /proc to find the processes of run " + runId
                    + " (harness4j needs Linux with /proc mounted)", e);
        }
        return out;
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

    /** {pgrp, session} of a live process, or null when it is gone or a zombie. */
    private static long[] stat(Path dir) {
        String s;
        try {
            s = Files.readString(dir.resolve("stat"), StandardCharsets.ISO_8859_1);
        } catch (IOException | RuntimeException e) {
            return null;
        }
        int close = s.lastIndexOf(')');
        if (close < 0 || close + 2 >= s.length()) {
            return null;
        }
        String[] f = s.substring(close + 2).split(" ", 5);
        if (f.length < 4 || f[0].equals("Z") || f[0].equals("X")) {
            return null;
        }
        try {
            return new long[] {Long.parseLong(f[2]), Long.parseLong(f[3])};
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static boolean hasMarker(Path dir, byte[] needle) {
        byte[] env;
        try (InputStream in = Files.newInputStream(dir.resolve("environ"))) {
            env = in.readNBytes(ENVIRON_READ_LIMIT);
        } catch (IOException | RuntimeException e) {
            return false; // gone, or not readable by this user
        }
        int from = 0;
        while (from + needle.length <= env.length) {
            int end = indexOf(env, (byte) 0, from);
            int entryEnd = end < 0 ? env.length : end;
            if (entryEnd - from == needle.length && java.util.Arrays.equals(env, from, entryEnd, needle, 0, needle.length)) {
                return true;
            }
            if (end < 0) {
                break;
            }
            from = end + 1;
        }
        return false;
    }

    private static int indexOf(byte[] a, byte b, int from) {
        for (int i = from; i < a.length; i++) {
            if (a[i] == b) {
                return i;
            }
        }
        return -1;
    }
}
