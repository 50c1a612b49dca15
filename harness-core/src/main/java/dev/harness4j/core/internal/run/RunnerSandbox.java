package dev.harness4j.core.internal.run;

import dev.harness4j.api.HarnessException;
import dev.harness4j.api.SandboxNetwork;
import dev.harness4j.core.Installations;
import dev.harness4j.core.internal.process.Bubblewrap;
import dev.harness4j.core.process.Confinement;
import dev.harness4j.core.internal.process.MeterRelay;
import dev.harness4j.core.process.Sandbox;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A runner's sandbox: its setting, the probe of bubblewrap (once, cached), the meter relay
 * (started with the first confined metered run, closed with the runner), and each run's
 * {@link Confinement} and {@code meta.json} section.
 */
public final class RunnerSandbox implements AutoCloseable {
    /** Where {@code perl}, which runs the meter relay inside the sandbox, usually is (Debian: {@code perl-base}, Essential). */
    private static final List<Path> PERL_CANDIDATES = List.of(Path.of("/usr/bin/perl"), Path.of("/bin/perl"));

    private final Sandbox mode;
    private final SandboxNetwork network;
    private final Path bwrap;
    private final List<Path> readOnly;
    private final Path perl;
    /** The bubblewrap probe of each network, started once (in the background) and kept. Guarded by this. */
    private final Map<SandboxNetwork, java.util.concurrent.CompletableFuture<Optional<String>>> probes =
            new java.util.EnumMap<>(SandboxNetwork.class);
    private MeterRelay relay; // guarded by this
    private boolean closed; // guarded by this
    private List<Path> toolMounts; // guarded by this

    public RunnerSandbox(Sandbox mode, SandboxNetwork network, Path bwrap, List<Path> readOnly) {
        this.mode = mode;
        this.network = network;
        this.bwrap = bwrap;
        this.readOnly = List.copyOf(readOnly);
        this.perl = PERL_CANDIDATES.stream().filter(Files::isExecutable).findFirst().orElse(null);
    }

    /** The run's network: its own ({@link dev.harness4j.api.RunSpec#sandboxNetwork()}) or the runner's. */
    public SandboxNetwork network(SandboxNetwork requested) {
        return requested != null ? requested : network;
    }

    /**
     * Why runs on this network cannot be confined here (probed once per network), or null when
     * they can or the sandbox is off.
     */
    public String problem(boolean metering, SandboxNetwork net) {
        if (mode == Sandbox.OFF) {
            return null;
        }
        String problem = probe(net).join().orElse(null);
        if (problem == null && metering && net == SandboxNetwork.METER_ONLY && perl == null) {
            return "perl, which runs the relay to the metering proxy inside the sandbox, is not installed "
                    + "(looked in " + PERL_CANDIDATES + "; install the Debian package 'perl-base')";
        }
        return problem;
    }

    /**
     * Starts probing bubblewrap for a network on a thread of its own, when it was not probed yet
     * (the first run's checkout goes on meanwhile); a no-op when the sandbox is off.
     */
    public void startProbe(SandboxNetwork requested) {
        if (mode != Sandbox.OFF) {
            probe(network(requested));
        }
    }

    private synchronized java.util.concurrent.CompletableFuture<Optional<String>> probe(SandboxNetwork net) {
        return probes.computeIfAbsent(net, n -> {
            var f = new java.util.concurrent.CompletableFuture<Optional<String>>();
            Thread t = new Thread(() -> {
                try {
                    f.complete(Bubblewrap.probe(bwrap, n));
                } catch (RuntimeException | Error e) {
                    f.complete(Optional.of("probing " + bwrap + " failed: " + e));
                }
            }, "harness4j-bwrap-probe");
            t.setDaemon(true);
            t.start();
            return f;
        });
    }

    /**
     * Throws when the sandbox is required and cannot run here: called before anything of a run
     * starts. {@code requested}: the run's network, or null for the runner's.
     */
    public void requireIfRequired(boolean metering, SandboxNetwork requested) {
        if (mode == Sandbox.REQUIRED) {
            String why = problem(metering, network(requested));
            if (why != null) {
                throw new HarnessException("the runner's sandbox is REQUIRED but cannot confine a run here: " + why
                        + "; install the Debian package 'bubblewrap' (apt-get install bubblewrap), or set "
                        + "HarnessRunner.builder().sandbox(Sandbox.AUTO or Sandbox.OFF)");
            }
        }
    }

    /**
     * The run's confinement, or empty to run unconfined; {@code section} receives what ran, for
     * {@code meta.json}. {@code requested}: the run's network, or null for the runner's;
     * {@code environment}: the one runs start from (its HOME is hidden like the JVM's).
     */
    public Optional<Confinement> confine(Path stateDir, Path workspace, Path scratch, Path baseline, Integer meterPort,
            SandboxNetwork requested, Map<String, String> environment, Map<String, Object> section) {
        if (mode == Sandbox.OFF) {
            section.put("mode", "off");
            return Optional.empty();
        }
        SandboxNetwork network = network(requested);
        String why = problem(meterPort != null, network);
        if (why != null) {
            section.put("mode", "unconfined");
            section.put("reason", why);
            return Optional.empty();
        }
        Set<Path> writable = new LinkedHashSet<>(List.of(workspace, scratch));
        gitCommonDir(workspace).ifPresent(writable::add); // a worktree commits into its baseline's object store
        Set<Path> hidden = new LinkedHashSet<>();
        hidden.add(stateDir); // other runs, their transcripts, this run's io: none of the agent's business
        hidden.addAll(homes(environment));
        List<Path> ro = new ArrayList<>(readOnly);
        ro.add(baseline); // a clone's origin: fetching from it works, writing it does not
        ro.addAll(toolMounts(environment));
        MeterRelay r = meterPort != null && network == SandboxNetwork.METER_ONLY ? relay(meterPort) : null;
        section.put("mode", "bubblewrap");
        section.put("network", network == SandboxNetwork.HOST ? "host" : r != null ? "meter-only" : "none");
        section.put("network_set_by", requested != null ? "run" : "runner");
        return Optional.of(new Confinement(bwrap, List.copyOf(writable), ro, scratch.resolve("home"),
                List.copyOf(hidden), network, r != null ? r.port() : 0, r != null ? r.socket() : null,
                r != null ? perl : null));
    }

    /**
     * The tools dir, and the install prefix of whatever its {@code bin} dirs link to outside it
     * (a venv's python in {@code ~/.pyenv/versions/3.11.7}): found once.
     */
    private synchronized List<Path> toolMounts(Map<String, String> environment) {
        if (toolMounts == null) {
            Path tools = Installations.defaultToolsBin().getParent().toAbsolutePath().normalize();
            Set<Path> out = new LinkedHashSet<>();
            out.add(tools);
            if (Files.isDirectory(tools)) {
                try (java.util.stream.Stream<Path> s = Files.walk(tools, 3)) {
                    s.filter(p -> Files.isSymbolicLink(p) && p.getParent().getFileName() != null
                            && p.getParent().getFileName().toString().equals("bin")).forEach(p -> {
                                try {
                                    Path real = p.toRealPath();
                                    Path prefix = real.getParent() != null ? real.getParent().getParent() : null;
                                    if (!real.startsWith(tools) && prefix != null && prefix.getNameCount() > 1
                                            && homes(environment).stream().noneMatch(h -> h.startsWith(prefix))) {
                                        out.add(prefix);
                                    }
                                } catch (IOException e) {
                                    // a dangling link: nothing to mount
                                }
                            });
                } catch (IOException | UncheckedIOException e) {
                    // an unreadable tools dir: the tools dir alone
                }
            }
            toolMounts = List.copyOf(out);
        }
        return toolMounts;
    }

    /** The real HOME (the JVM's) and the runs' HOME (the runner's environment's), never shown inside. */
    private static List<Path> homes(Map<String, String> environment) {
        Set<Path> homes = new LinkedHashSet<>();
        homes.add(Path.of(System.getProperty("user.home")).toAbsolutePath().normalize());
        String envHome = environment.get("HOME");
        if (envHome != null && !envHome.isBlank()) {
            homes.add(Path.of(envHome).toAbsolutePath().normalize());
        }
        return List.copyOf(homes);
    }

    /** The relay to the meter's port, started on first use. */
    private synchronized MeterRelay relay(int port) {
        if (closed) {
            throw new IllegalStateException("this HarnessRunner is closed");
        }
        if (relay == null) {
            try {
                relay = MeterRelay.start(port);
            } catch (IOException e) {
                throw new UncheckedIOException("could not start the meter relay's Unix socket", e);
            }
        }
        return relay;
    }

    /** A worktree's git common dir (its {@code .git} file's {@code gitdir}, then {@code commondir}). */
    public static Optional<Path> gitCommonDir(Path workspace) {
        Path dotGit = workspace.resolve(".git");
        if (!Files.isRegularFile(dotGit)) {
            return Optional.empty();
        }
        try {
            String line = Files.readString(dotGit, StandardCharsets.UTF_8).strip();
            if (!line.startsWith("gitdir:")) {
                return Optional.empty();
            }
            Path gitDir = workspace.resolve(line.substring("gitdir:".length()).strip()).normalize();
            Path common = gitDir.resolve("commondir");
            if (!Files.isRegularFile(common)) {
                return Optional.of(gitDir);
            }
            return Optional.of(gitDir.resolve(Files.readString(common, StandardCharsets.UTF_8).strip()).normalize());
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** The {@code perl} that runs the relays inside a sandbox, or null when there is none. */
    public Path perl() {
        return perl;
    }

    /** The setting's name in meta.json. */
    public String modeName() {
        return mode.name().toLowerCase(Locale.ROOT);
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (relay != null) {
            relay.close();
        }
    }

    public Map<String, Object> newSection() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("setting", modeName());
        return m;
    }
}
