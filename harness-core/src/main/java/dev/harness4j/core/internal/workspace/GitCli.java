package dev.harness4j.core.internal.workspace;

import dev.harness4j.core.workspace.WorkspaceException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Runs the {@code git} binary with a timeout, a clean environment (no inherited {@code GIT_*}
 * variables, no prompts, hooks disabled) and captured output. Immutable and thread-safe.
 */
final class GitCli {
    /** How long one git command may take before it is killed: 10 minutes (a big clone). */
    static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(10);

    /** At most this much of stderr is kept for error messages. */
    private static final int MAX_ERR = 8 * 1024;

    private final String executable;
    private final Duration timeout;

    GitCli(String executable, Duration timeout) {
        this.executable = Objects.requireNonNull(executable, "executable");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
    }

    /** What one command did. */
    String executable() {
        return executable;
    }

    record Result(List<String> command, int exitCode, byte[] stdout, String stderr) {
        boolean ok() {
            return exitCode == 0;
        }

        String out() {
            return new String(stdout, StandardCharsets.UTF_8).strip();
        }

        /** Throws a {@link WorkspaceException} naming the command when it failed. */
        Result orThrow(String attempted) {
            if (!ok()) {
                throw new WorkspaceException(attempted + " failed: `" + String.join(" ", command)
                        + "` exited with " + exitCode + ": " + stderr.strip());
            }
            return this;
        }
    }

    Result run(Path dir, List<String> args) {
        return run(dir, Map.of(), args);
    }

    Result run(Path dir, Map<String, String> env, List<String> args) {
        return run(dir, env, null, args);
    }

    /**
     * Runs git in {@code dir}.
     *
     * @param stdoutFile where stdout goes, or {@code null} to capture it in memory
     */
    Result run(Path dir, Map<String, String> env, Path stdoutFile, List<String> args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(executable);
        cmd.add("-c");
        cmd.add("core.hooksPath=/dev/null");
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
        Map<String, String> e = pb.environment();
        e.keySet().removeIf(k -> k.startsWith("GIT_"));
        e.put("GIT_TERMINAL_PROMPT", "0");
        e.put("GIT_CONFIG_NOSYSTEM", "1");
        e.put("LC_ALL", "C");
        e.putAll(env);
        pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        if (stdoutFile != null) {
            pb.redirectOutput(stdoutFile.toFile());
        }
        Process p;
        try {
            p = pb.start();
        } catch (IOException ex) {
            throw new WorkspaceException("could not start git (" + executable + "): " + ex.getMessage()
                    + "; install git or configure its path", ex);
        }
        try {
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            Thread errDrain = drainer(p.getErrorStream(), err, MAX_ERR, "harness4j-git-stderr");
            ByteArrayOutputStream o = new ByteArrayOutputStream();
            Thread outDrain = stdoutFile == null ? drainer(p.getInputStream(), o, Integer.MAX_VALUE, "harness4j-git-stdout") : null;
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                killTree(p);
                throw new WorkspaceException("`" + String.join(" ", cmd) + "` did not finish within "
                        + describe(timeout) + " and was killed; check the remote or the repository (a stalled"
                        + " network or a lock), or raise the git timeout");
            }
            if (outDrain != null) {
                outDrain.join(timeout.toMillis());
            }
            errDrain.join(timeout.toMillis());
            byte[] out;
            synchronized (o) {
                out = o.toByteArray();
            }
            String errText;
            synchronized (err) {
                errText = err.toString(StandardCharsets.UTF_8);
            }
            return new Result(cmd, p.exitValue(), out, errText);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new WorkspaceException("interrupted while running `" + String.join(" ", cmd) + "`", ex);
        } finally {
            if (p.isAlive()) {
                killTree(p);
            }
        }
    }

    private static Thread drainer(InputStream in, ByteArrayOutputStream sink, int max, String name) {
        Thread t = new Thread(() -> drain(in, sink, max), name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** Kills git and every process it started (a push runs ssh or a remote helper). */
    private static void killTree(Process p) {
        List<ProcessHandle> descendants = p.descendants().toList();
        p.destroyForcibly();
        descendants.forEach(ProcessHandle::destroyForcibly);
    }

    private static String describe(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }

    private static void drain(InputStream in, ByteArrayOutputStream sink, int max) {
        byte[] buf = new byte[8192];
        try (in) {
            int n;
            while ((n = in.read(buf)) >= 0) {
                synchronized (sink) {
                    int keep = Math.min(n, max - sink.size());
                    if (keep > 0) {
                        sink.write(buf, 0, keep);
                    }
                }
            }
        } catch (IOException e) {
            // the process went away; what was read is kept
        }
    }

}
