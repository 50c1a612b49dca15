package dev.harness4j.core.internal.process;

import dev.harness4j.core.process.Confinement;

import dev.harness4j.api.SandboxNetwork;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The bubblewrap ({@code bwrap}, Debian package {@code bubblewrap}) command line that confines a
 * run's process tree, and the probe that tells whether it works on this machine. Pure functions
 * apart from {@link #probe}.
 *
 * <p>Inside: {@code /} read-only; the {@link Confinement#writable()} directories read-write; a
 * private {@code /tmp}; the real HOME an empty {@code tmpfs} except the {@link
 * Confinement#readOnly()} directories; {@code /proc} and {@code /dev} of its own; its own PID
 * namespace, killed with its parent; without {@link SandboxNetwork#HOST}, a network namespace
 * with only loopback, where {@code 127.0.0.1:<meter port>} is served by a small Perl relay
 * ({@code meter-relay.pl}: it listens before it execs the harness, so nothing waits for it)
 * forwarding each connection over a Unix socket to the metering proxy outside. The environment is
 * inherited, so the run marker stays visible to the host's {@code /proc} scan, which sees the
 * real pids.
 */
public final class Bubblewrap {
    /** Where {@code bwrap} usually is. */
    public static final Path DEFAULT_BWRAP = Path.of("/usr/bin/bwrap");
    /** How long the probe may take. */
    public static final Duration PROBE_TIMEOUT = Duration.ofSeconds(10);
    /** How to install it, for messages. */
    public static final String INSTALL_HINT = "install the Debian package 'bubblewrap' (apt-get install bubblewrap)";

    /** The relay's inside half ({@code meter-relay.pl}, next to this class), run with {@code perl -e}. */
    private static final String RELAY_SCRIPT = resource("meter-relay.pl");

    private Bubblewrap() {}

    /** {@code bwrap <confinement> -- [relay] argv...}. */
    public static List<String> command(Confinement c, Path workingDir, List<String> argv) {
        List<String> cmd = new ArrayList<>();
        cmd.add(c.bwrap().toString());
        cmd.addAll(List.of("--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"));
        List<Path> hidden = outermost(c.hidden());
        for (Path p : hidden) {
            mount(cmd, "--tmpfs", p);
        }
        for (Path p : c.readOnly()) {
            if (Files.isDirectory(p)) {
                mount(cmd, "--ro-bind", p.toAbsolutePath().normalize(), p.toAbsolutePath().normalize());
            }
        }
        for (Path p : c.writable()) {
            mount(cmd, "--bind", p.toAbsolutePath().normalize(), p.toAbsolutePath().normalize());
        }
        for (Path p : hidden) { // empty and read-only: writing the real HOME fails visibly
            mount(cmd, "--remount-ro", p);
        }
        if (c.relays()) {
            mount(cmd, "--bind", c.meterSocket().toAbsolutePath(), Path.of(Confinement.INNER_SOCKET));
        }
        cmd.addAll(List.of("--unshare-pid", "--unshare-ipc", "--unshare-uts", "--die-with-parent"));
        if (c.network() != SandboxNetwork.HOST) {
            cmd.add("--unshare-net");
        }
        cmd.add("--chdir");
        cmd.add(workingDir.toAbsolutePath().toString());
        cmd.add("--");
        if (c.relays()) {
            cmd.addAll(List.of(c.perl().toString(), "-e", RELAY_SCRIPT, "--", Integer.toString(c.meterPort()),
                    Confinement.INNER_SOCKET));
        }
        cmd.addAll(argv);
        return cmd;
    }

    /** The existing directories of {@code dirs} that are not {@code /} nor inside another one, outermost first. */
    static List<Path> outermost(List<Path> dirs) {
        List<Path> abs = dirs.stream().map(p -> p.toAbsolutePath().normalize())
                .filter(p -> p.getParent() != null && Files.isDirectory(p)).distinct()
                .sorted(java.util.Comparator.comparingInt(Path::getNameCount)).toList();
        List<Path> out = new ArrayList<>();
        for (Path p : abs) {
            if (out.stream().noneMatch(p::startsWith)) {
                out.add(p);
            }
        }
        return out;
    }

    private static void mount(List<String> cmd, String kind, Path... paths) {
        cmd.add(kind);
        for (Path p : paths) {
            cmd.add(p.toString());
        }
    }

    /**
     * Whether {@code bwrap} can confine a process here (it starts {@code true} in the namespaces a
     * run gets), within {@link #PROBE_TIMEOUT}; empty when it can, else why not.
     */
    public static Optional<String> probe(Path bwrap, SandboxNetwork network) {
        if (!Files.isRegularFile(bwrap) || !Files.isExecutable(bwrap)) {
            return Optional.of("bubblewrap is not installed (" + bwrap + " is not an executable file); " + INSTALL_HINT);
        }
        List<String> cmd = new ArrayList<>(List.of(bwrap.toString(), "--ro-bind", "/", "/", "--dev", "/dev",
                "--proc", "/proc", "--tmpfs", "/tmp", "--unshare-pid", "--die-with-parent"));
        if (network != SandboxNetwork.HOST) {
            cmd.add("--unshare-net");
        }
        cmd.addAll(List.of("--", "/bin/sh", "-c", "exit 0"));
        Process p = null;
        try {
            p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.from(
                    new java.io.File("/dev/null"))).start();
            if (!p.waitFor(PROBE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                return Optional.of(bwrap + " did not answer within " + PROBE_TIMEOUT.toSeconds() + "s");
            }
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (p.exitValue() != 0) {
                return Optional.of(bwrap + " cannot confine a process here (exit " + p.exitValue()
                        + (out.isEmpty() ? "" : ": " + firstLine(out)) + ")");
            }
            return Optional.empty();
        } catch (IOException e) {
            return Optional.of("could not run " + bwrap + ": " + e.getMessage() + "; " + INSTALL_HINT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of("interrupted while probing " + bwrap);
        } finally {
            if (p != null && p.isAlive()) {
                p.destroyForcibly();
            }
        }
    }

    private static String resource(String name) {
        try (java.io.InputStream in = Bubblewrap.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("harness-core's resource " + name + " is missing from the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("could not read harness-core's resource " + name, e);
        }
    }

    private static String firstLine(String s) {
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
