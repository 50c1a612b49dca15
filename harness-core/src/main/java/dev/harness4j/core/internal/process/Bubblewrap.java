package dev.harness4j.core.internal.process;

import dev.harness4j.core.process.Confinement;

import dev.harness4j.api.SandboxNetwork;
import java.io.IOException;
import java.io.UncheckedIOException;
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
 * of the confinement and the host's file system, apart from {@link #probe}.
 *
 * <p>Inside, the root is an empty read-only {@code tmpfs} holding only: the system read-only
 * ({@code /usr}; {@code /bin}, {@code /sbin}, {@code /lib*} as the symlinks they are on a
 * merged-usr host, else bound read-only); {@code /etc} read-only with its secrets ({@link
 * #ETC_SECRETS}) masked: they read as empty, and an {@code /etc} symlink leading elsewhere, such
 * as {@code resolv.conf} into {@code /run}, finds the one file it leads to); its own {@code /proc} and {@code /dev}; a private {@code /tmp} and
 * {@code /var/tmp}; the {@link Confinement#readOnly()} paths (the tools dir, the baseline)
 * read-only and the {@link Confinement#writable()} ones (the workspace, the scratch dir)
 * read-write, each at its own path; the {@link Confinement#hidden()} directories (the real HOME,
 * the state dir) an empty read-only {@code tmpfs} where one of those would show them. Nothing
 * else of the host: not {@code /run}, {@code /var}, {@code /home}, {@code /root}, {@code /opt},
 * {@code /srv}, {@code /mnt}, {@code /sys}, so no host Unix socket either. Every capability is
 * dropped (a root run could otherwise remount a read-only bind read-write), its own PID, IPC and
 * UTS namespaces, killed with its parent; without {@link SandboxNetwork#HOST}, a network
 * namespace with only loopback, where {@code 127.0.0.1:<meter port>} is served by a small Perl
 * relay ({@code meter-relay.pl}: it listens before it execs the harness, so nothing waits for it)
 * forwarding each connection over a Unix socket to the metering proxy outside (and so, chained, for
 * each of the confinement's {@link Confinement#forwards()}: a host loopback port such as a run's
 * HTTP MCP server, reached at the same address inside). The run marker in
 * the environment stays visible to the host's {@code /proc} scan, which sees the real pids.
 */
public final class Bubblewrap {
    /** Where {@code bwrap} usually is. */
    public static final Path DEFAULT_BWRAP = Path.of("/usr/bin/bwrap");
    /** How long the probe may take. */
    public static final Duration PROBE_TIMEOUT = Duration.ofSeconds(10);
    /** How to install it, for messages. */
    public static final String INSTALL_HINT = "install the Debian package 'bubblewrap' (apt-get install bubblewrap)";

    /**
     * What of {@code /etc} is never shown, as globs relative to {@code /etc}: password and group
     * hashes and their backups, old password hashes, the ssh host private keys, TLS private keys.
     */
    public static final List<String> ETC_SECRETS = List.of("shadow", "shadow-", "gshadow", "gshadow-",
            "security/opasswd", "ssh/*_key", "ssl/private");
    /** Where the host's {@code /etc} symlinks may lead and stay symlinks (they lead into what is shown). */
    private static final List<Path> SHOWN_ROOTS = List.of(Path.of("/usr"), Path.of("/etc"), Path.of("/proc"),
            Path.of("/dev"), Path.of("/bin"), Path.of("/sbin"), Path.of("/lib"), Path.of("/lib64"));
    private static final Path ETC = Path.of("/etc");

    /** The relay's inside half ({@code meter-relay.pl}, next to this class), run with {@code perl -e}. */
    private static final String RELAY_SCRIPT = resource("meter-relay.pl");

    private Bubblewrap() {}

    /** {@code bwrap <confinement> -- [relay] argv...}. */
    public static List<String> command(Confinement c, Path workingDir, List<String> argv) {
        List<String> cmd = new ArrayList<>();
        cmd.add(c.bwrap().toString());
        List<Path> remountRo = new ArrayList<>();
        system(cmd);
        etc(cmd, remountRo);
        cmd.addAll(List.of("--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", "--tmpfs", "/var/tmp"));
        remountRo.addAll(0, trees(cmd, c));
        if (c.relays()) {
            mount(cmd, "--bind", c.meterSocket().toAbsolutePath(), Path.of(Confinement.INNER_SOCKET));
        }
        for (int i = 0; i < c.forwards().size(); i++) {
            mount(cmd, "--bind", c.forwards().get(i).socket().toAbsolutePath(), Path.of(innerForwardSocket(i)));
        }
        for (Path p : remountRo) { // empty and read-only: writing there fails visibly
            mount(cmd, "--remount-ro", p);
        }
        mount(cmd, "--remount-ro", Path.of("/"));
        cmd.addAll(List.of("--cap-drop", "ALL", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--die-with-parent"));
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
        for (int i = 0; i < c.forwards().size(); i++) { // each relay listens, then execs the next
            cmd.addAll(List.of(c.perl().toString(), "-e", RELAY_SCRIPT, "--",
                    Integer.toString(c.forwards().get(i).port()), innerForwardSocket(i)));
        }
        cmd.addAll(argv);
        return cmd;
    }

    /** Where the socket of the i-th forward appears inside the sandbox (in its private {@code /tmp}). */
    static String innerForwardSocket(int i) {
        return "/tmp/.harness4j-forward-" + i + ".sock";
    }

    /** {@code /usr} read-only, and {@code /bin}, {@code /lib*}, {@code /sbin} as symlinks (merged usr) or read-only. */
    private static void system(List<String> cmd) {
        for (String dir : Confinement.SYSTEM_DIRS) {
            Path p = Path.of(dir);
            if (Files.isSymbolicLink(p)) {
                try {
                    cmd.addAll(List.of("--symlink", Files.readSymbolicLink(p).toString(), dir));
                } catch (IOException e) {
                    // unreadable link: not shown
                }
            } else if (Files.isDirectory(p)) {
                mount(cmd, "--ro-bind", p, p);
            }
        }
    }

    /**
     * {@code /etc} read-only with {@link #ETC_SECRETS} masked: a secret file (and a socket, fifo
     * or device at its top) shows {@code /dev/null}, a secret directory an empty {@code tmpfs}
     * (read-only at the end: added to {@code remountRo}). A top-level symlink leading outside what
     * is shown (say {@code resolv.conf} into {@code /run}) gets the one file it leads to, at the
     * path it names. One bind for {@code /etc} and a mask per secret, not a bind per entry: each
     * mount costs about a millisecond of every sandbox's start.
     */
    private static void etc(List<String> cmd, List<Path> remountRo) {
        if (!Files.isDirectory(ETC)) {
            return;
        }
        mount(cmd, "--ro-bind", ETC, ETC);
        List<Path> entries;
        try (java.util.stream.Stream<Path> s = Files.list(ETC)) {
            entries = s.sorted().toList();
        } catch (IOException | UncheckedIOException e) {
            entries = List.of();
        }
        for (Path e : entries) {
            if (Files.isSymbolicLink(e)) {
                etcLink(cmd, e);
            } else if (!Files.isDirectory(e) && !Files.isRegularFile(e)) { // a socket, a fifo, a device
                mount(cmd, "--ro-bind", Path.of("/dev/null"), e);
            }
        }
        for (String glob : ETC_SECRETS) {
            Path rel = Path.of(glob);
            Path dir = rel.getParent() == null ? ETC : ETC.resolve(rel.getParent());
            java.nio.file.PathMatcher m = java.nio.file.FileSystems.getDefault().getPathMatcher("glob:" + glob);
            if (!Files.isDirectory(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                continue;
            }
            try (java.util.stream.Stream<Path> s = Files.list(dir)) {
                for (Path secret : s.filter(p -> m.matches(ETC.relativize(p))).sorted().toList()) {
                    if (Files.isDirectory(secret, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                        mount(cmd, "--tmpfs", secret);
                        remountRo.add(secret);
                    } else if (!Files.isSymbolicLink(secret)) { // a link leads to what is itself masked or not shown
                        mount(cmd, "--ro-bind", Path.of("/dev/null"), secret);
                    }
                }
            } catch (IOException | UncheckedIOException e) {
                // unreadable by this user: not readable inside either
            }
        }
    }

    /** A top-level symlink of {@code /etc} leading outside what is shown: the file it leads to, at the path it names. */
    private static void etcLink(List<String> cmd, Path link) {
        try {
            Path lexical = link.getParent().resolve(Files.readSymbolicLink(link)).normalize();
            if (SHOWN_ROOTS.stream().anyMatch(lexical::startsWith)) {
                return;
            }
            Path real = link.toRealPath();
            if (Files.isRegularFile(real) && !real.startsWith(ETC)) {
                mount(cmd, "--ro-bind", real, lexical);
            }
        } catch (IOException e) {
            // dangling: it dangles inside too
        }
    }

    /**
     * The confinement's own paths, parents before what is inside them: hidden directories as an
     * empty {@code tmpfs} (only where a shown path would show them; returned, to be made
     * read-only), read-only paths, writable ones; missing paths are skipped.
     */
    private static List<Path> trees(List<String> cmd, Confinement c) {
        record Op(String kind, Path path, int order) {}
        List<Op> ops = new ArrayList<>();
        List<Path> shown = new ArrayList<>();
        for (Path p : c.readOnly()) {
            Path a = p.toAbsolutePath().normalize();
            if (Files.exists(a)) {
                ops.add(new Op("--ro-bind", a, 1));
                shown.add(a);
            }
        }
        for (Path p : c.writable()) {
            Path a = p.toAbsolutePath().normalize();
            if (Files.exists(a)) {
                ops.add(new Op("--bind", a, 2));
                shown.add(a);
            }
        }
        List<Path> hidden = new ArrayList<>();
        for (Path p : outermost(c.hidden())) {
            if (shown.stream().anyMatch(s -> p.startsWith(s) && !p.equals(s))) {
                ops.add(new Op("--tmpfs", p, 0));
                hidden.add(p);
            }
        }
        ops.sort(java.util.Comparator.comparingInt((Op o) -> o.path().getNameCount()).thenComparingInt(Op::order));
        for (Op o : ops) {
            if (o.kind().equals("--tmpfs")) {
                mount(cmd, o.kind(), o.path());
            } else {
                mount(cmd, o.kind(), o.path(), o.path());
            }
        }
        return hidden;
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
                "--proc", "/proc", "--tmpfs", "/tmp", "--cap-drop", "ALL", "--unshare-pid", "--die-with-parent"));
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
