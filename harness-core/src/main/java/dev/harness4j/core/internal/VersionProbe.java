package dev.harness4j.core.internal;

import dev.harness4j.api.HarnessException;
import dev.harness4j.core.internal.workspace.SafeDelete;
import dev.harness4j.core.workspace.WorkspaceException;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a CLI's version command in a throwaway home: {@code HOME}, the XDG base directories and
 * {@code TMPDIR} point into a temporary directory that is deleted afterwards, so a CLI that writes
 * its state even for {@code --version} (Gemini CLI 0.61.0 registers the working directory in
 * {@code ~/.gemini/projects.json}) never touches the user's home. Every other variable, {@code
 * PATH} included, is the caller's: a run's rule ({@link dev.harness4j.core.process.RunEnvironment}),
 * by default the allowlist of the JVM's environment, never the whole of it. A version-manager shim that finds its
 * tools through {@code HOME} (asdf, mise) may fail here: configure the real binary's path instead. Pure function of its arguments; each call has its own directory.
 *
 * <p>Why core and not each adapter: the version probe runs before any run context exists, every
 * CLI may do this (each in its own way: {@code ~/.gemini}, {@code ~/.claude.json}, XDG dirs), and
 * a throwaway home covers them all without the adapter knowing; a CLI's own home variable
 * (e.g. {@code GEMINI_CLI_HOME}) would need a directory the pure adapter cannot make.
 */
public final class VersionProbe {
    private static final Logger log = LoggerFactory.getLogger(VersionProbe.class);

    /** The variables pointed into the throwaway home, with where below it. */
    static final Map<String, String> HOME_DIRS = Map.of(
            "HOME", "home",
            "XDG_CONFIG_HOME", "home/.config",
            "XDG_DATA_HOME", "home/.local/share",
            "XDG_STATE_HOME", "home/.local/state",
            "XDG_CACHE_HOME", "home/.cache",
            "TMPDIR", "tmp");

    private static final int MAX_OUTPUT = 4096;

    private VersionProbe() {}

    /**
     * The first line the command printed (stdout and stderr together) when it exits 0 with output.
     *
     * @param exe the binary
     * @param args its version arguments
     * @param timeout how long it may run before it and its descendants are killed
     * @param environment the variables it starts with before the throwaway home is set, or {@code
     *     null} for {@link dev.harness4j.core.process.RunEnvironment#defaults()}
     * @return the first line, or empty when it failed, printed nothing or could not start
     * @throws HarnessException when it did not finish within {@code timeout}
     */
    public static Optional<String> run(Path exe, List<String> args, Duration timeout, Map<String, String> environment) {
        List<String> cmd = new ArrayList<>();
        cmd.add(exe.toString());
        cmd.addAll(args);
        Path dir = null;
        Process p = null;
        try {
            dir = Files.createTempDirectory("harness4j-version");
            Path out = dir.resolve("out.txt");
            ProcessBuilder pb = new ProcessBuilder(cmd)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectErrorStream(true)
                    .redirectOutput(out.toFile());
            pb.environment().clear();
            pb.environment().putAll(environment != null ? environment
                    : dev.harness4j.core.process.RunEnvironment.defaults());
            for (Map.Entry<String, String> e : HOME_DIRS.entrySet()) {
                Path d = Files.createDirectories(dir.resolve(e.getValue()));
                pb.environment().put(e.getKey(), d.toString());
            }
            p = pb.start();
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new HarnessException("version probe " + cmd + " did not finish within "
                        + timeout.toSeconds() + " s");
            }
            if (p.exitValue() != 0) {
                return Optional.empty();
            }
            try (InputStream in = Files.newInputStream(out)) {
                String text = new String(in.readNBytes(MAX_OUTPUT), StandardCharsets.UTF_8).strip();
                return text.isEmpty() ? Optional.empty() : Optional.of(text.lines().findFirst().orElse(text));
            }
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } finally {
            if (p != null && p.isAlive()) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
            }
            delete(dir);
        }
    }

    private static void delete(Path dir) {
        if (dir == null) {
            return;
        }
        try {
            for (String child : List.of("home", "tmp", "out.txt")) {
                SafeDelete.deleteBelow(dir, dir.resolve(child));
            }
            Files.deleteIfExists(dir);
        } catch (WorkspaceException | IOException e) {
            log.debug("could not delete the version probe's throwaway home {}: {}", dir, e.toString());
        }
    }
}
