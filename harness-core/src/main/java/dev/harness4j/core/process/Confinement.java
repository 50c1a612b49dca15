package dev.harness4j.core.process;

import dev.harness4j.api.Invocation;
import dev.harness4j.api.McpServer;
import dev.harness4j.api.SandboxNetwork;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * How one process is confined by bubblewrap: what of the host it sees besides the system
 * (read-only, and what it may write), its own HOME, and its network.
 *
 * @param bwrap the {@code bwrap} executable
 * @param writable paths mounted read-write at their own paths (the workspace, the scratch dir);
 *     missing ones are skipped
 * @param readOnly paths mounted read-only at their own paths, even when under a hidden one (the
 *     tools dir where the CLIs live, the baseline); missing ones are skipped
 * @param home the sandbox's HOME (created when missing; it should be under a writable directory)
 * @param hidden directories shown as an empty read-only {@code tmpfs} where a readOnly or writable
 *     path contains them (the real HOME, the state dir); {@code /} is ignored
 * @param network what the process may reach
 * @param meterPort the loopback port served inside the sandbox by the relay to {@code meterSocket}; 0 for none
 * @param meterSocket the Unix socket outside that leads to the metering proxy (the meter relay serves it inside); null for none
 * @param perl the {@code perl} that runs the relay serving {@code meterPort} (and the {@code
 *     forwards}) inside; null when there is no relay
 * @param forwards more loopback ports served inside by the same relay, each to a Unix socket
 *     outside that leads to that port on the host (a run's HTTP MCP server); empty for none
 */
public record Confinement(
        Path bwrap,
        List<Path> writable,
        List<Path> readOnly,
        Path home,
        List<Path> hidden,
        SandboxNetwork network,
        int meterPort,
        Path meterSocket,
        Path perl,
        List<Forward> forwards) {
    /** The system's directories every confined process sees read-only (or as the symlinks they are), when the host has them. */
    public static final List<String> SYSTEM_DIRS = List.of("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32");


    /** Where the meter's socket appears inside the sandbox (in its private {@code /tmp}). */
    public static final String INNER_SOCKET = "/tmp/.harness4j-meter.sock";

    public Confinement {
        Objects.requireNonNull(bwrap, "bwrap");
        writable = List.copyOf(writable);
        readOnly = List.copyOf(readOnly);
        Objects.requireNonNull(home, "home");
        hidden = List.copyOf(hidden);
        Objects.requireNonNull(network, "network");
        if (meterPort < 0 || meterPort > 65535) {
            throw new IllegalArgumentException("meterPort must be 0..65535, was " + meterPort);
        }
        forwards = List.copyOf(Objects.requireNonNull(forwards, "forwards"));
        if ((relays() || !forwards.isEmpty()) && perl == null) {
            throw new IllegalArgumentException("a meter relay needs perl");
        }
        if (network == SandboxNetwork.HOST && !forwards.isEmpty()) {
            throw new IllegalArgumentException("a HOST network reaches the host's ports itself: forward none");
        }
    }

    /**
     * A confinement without forwards (the constructor before {@link #forwards()}).
     *
     * @param bwrap the {@code bwrap} executable
     * @param writable paths mounted read-write
     * @param readOnly paths mounted read-only
     * @param home the sandbox's HOME
     * @param hidden directories shown empty
     * @param network what the process may reach
     * @param meterPort the meter's loopback port inside, or 0
     * @param meterSocket the socket leading to the meter, or null
     * @param perl the perl running the relay, or null
     */
    public Confinement(Path bwrap, List<Path> writable, List<Path> readOnly, Path home, List<Path> hidden,
            SandboxNetwork network, int meterPort, Path meterSocket, Path perl) {
        this(bwrap, writable, readOnly, home, hidden, network, meterPort, meterSocket, perl, List.of());
    }

    /**
     * One more loopback port inside the sandbox, relayed to a Unix socket outside.
     *
     * @param port the port {@code 127.0.0.1} serves inside (the host port it stands for)
     * @param socket the socket outside that leads to that port on the host
     */
    public record Forward(int port, Path socket) {
        public Forward {
            if (port < 1 || port > 65535) {
                throw new IllegalArgumentException("port must be 1..65535, was " + port);
            }
            Objects.requireNonNull(socket, "socket");
        }
    }

    /**
     * This confinement with more relayed ports.
     *
     * @param more the forwards to add
     * @param perlIfNone the perl to run the relay with when this confinement has none yet
     * @return the copy, or this when {@code more} is empty
     */
    public Confinement forwarding(List<Forward> more, Path perlIfNone) {
        if (more.isEmpty()) {
            return this;
        }
        List<Forward> all = new java.util.ArrayList<>(forwards);
        all.addAll(more);
        return new Confinement(bwrap, writable, readOnly, home, hidden, network, meterPort, meterSocket,
                perl != null ? perl : perlIfNone, all);
    }

    /**
     * This confinement with more paths shown: an invocation's own ({@link
     * Invocation#readOnlyPaths()}, {@link Invocation#writablePaths()}), and the install of its
     * executable when given by absolute path outside the system ({@link #installOf}).
     *
     * @param invocation what the adapter asked for
     * @return a copy with its paths added, or this when there are none
     */
    public Confinement including(Invocation invocation) {
        java.util.Optional<Path> install = installOf(invocation.command().get(0));
        if (invocation.readOnlyPaths().isEmpty() && invocation.writablePaths().isEmpty() && install.isEmpty()) {
            return this;
        }
        List<Path> ro = new java.util.ArrayList<>(readOnly);
        install.ifPresent(ro::add);
        ro.addAll(invocation.readOnlyPaths());
        List<Path> rw = new java.util.ArrayList<>(writable);
        rw.addAll(invocation.writablePaths());
        return new Confinement(bwrap, rw, ro, home, hidden, network, meterPort, meterSocket, perl, forwards);
    }

    /**
     * This confinement with the paths the run's stdio MCP servers need (they run inside, as the
     * agent's children): each one's {@link McpServer.Stdio#readOnlyPaths()} and {@link
     * McpServer.Stdio#writablePaths()}, and its command's install when given by absolute path
     * outside what is shown ({@link #installOf}).
     *
     * @param servers the run's MCP servers
     * @return a copy with their paths added, or this when there are none
     */
    public Confinement including(List<McpServer> servers) {
        List<Path> ro = new java.util.ArrayList<>(readOnly);
        List<Path> rw = new java.util.ArrayList<>(writable);
        for (McpServer m : servers) {
            if (m instanceof McpServer.Stdio s) {
                installOf(s.command()).ifPresent(ro::add);
                ro.addAll(s.readOnlyPaths());
                rw.addAll(s.writablePaths());
            }
        }
        return ro.size() == readOnly.size() && rw.size() == writable.size() ? this
                : new Confinement(bwrap, rw, ro, home, hidden, network, meterPort, meterSocket, perl, forwards);
    }

    /**
     * Where an executable given by absolute path is installed, when the sandbox would not show it
     * otherwise (a CLI under {@code /opt}, {@code ~/.local}): the prefix above the {@code bin}
     * dir its real path lies in, else its real path's dir, else the file alone; never a prefix
     * that holds a {@link #hidden()} dir (the real HOME), never {@code /usr} and the like.
     */
    java.util.Optional<Path> installOf(String executable) {
        Path exe = Path.of(executable);
        if (!exe.isAbsolute()) {
            return java.util.Optional.empty();
        }
        Path real;
        try {
            real = exe.toRealPath();
        } catch (java.io.IOException e) {
            return java.util.Optional.empty(); // missing: the start fails with its own message
        }
        List<Path> shown = new java.util.ArrayList<>(readOnly);
        shown.addAll(writable);
        shown.addAll(SYSTEM_DIRS.stream().map(Path::of).toList());
        if (shown.stream().anyMatch(s -> real.startsWith(s.toAbsolutePath().normalize()))) {
            return java.util.Optional.empty();
        }
        Path dir = real.getParent();
        Path prefix = dir != null && dir.getFileName() != null && dir.getFileName().toString().equals("bin")
                ? dir.getParent() : dir;
        boolean fits = prefix != null && prefix.getNameCount() >= 2
                && hidden.stream().noneMatch(h -> h.toAbsolutePath().normalize().startsWith(prefix));
        return java.util.Optional.of(fits ? prefix : real);
    }

    /** Whether the meter is relayed into the sandbox's own network namespace. */
    public boolean relays() {
        return network == SandboxNetwork.METER_ONLY && meterPort > 0 && meterSocket != null;
    }
}
