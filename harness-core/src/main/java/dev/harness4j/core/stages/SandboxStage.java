package dev.harness4j.core.stages;

import dev.harness4j.api.SandboxNetwork;
import dev.harness4j.core.internal.run.CoreKeys;
import dev.harness4j.core.internal.run.RunnerSandbox;
import dev.harness4j.core.internal.run.RunnerServices;
import dev.harness4j.core.pipeline.RunChain;
import dev.harness4j.core.pipeline.RunContext;
import dev.harness4j.core.pipeline.RunKeys;
import dev.harness4j.core.pipeline.RunOutcome;
import dev.harness4j.core.pipeline.RunStage;
import dev.harness4j.core.pipeline.RunStore;
import dev.harness4j.core.pipeline.Slot;
import dev.harness4j.api.McpServer;
import dev.harness4j.core.internal.process.Bubblewrap;
import dev.harness4j.core.internal.process.MeterRelay;
import dev.harness4j.core.process.Confinement;
import dev.harness4j.core.process.Sandbox;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Confines each harness process (and its login probe and after-harness commands) in a
 * bubblewrap sandbox: of the host only the system read-only ({@code /usr}, {@code /bin},
 * {@code /lib*}, {@code /etc} with its secrets masked), the baseline, the tools dir and {@link
 * Builder#readOnly} dirs read-only, its workspace and scratch dir read-write (and the paths its
 * {@link dev.harness4j.api.Invocation} asks for); an empty HOME of its own, a private {@code
 * /tmp}, no capability, its own PID namespace, and no network but the meter (reached through a
 * relay, the port the meter stage publishes); a stdio MCP server of the run ({@link
 * dev.harness4j.api.McpServer.Stdio}) runs inside too, as the agent's child, with its own paths
 * shown, and an HTTP one on this host's loopback is served at its own address inside through a
 * relay of its own (the only host address a run reaches besides the meter). A stop sends {@code TERM} to the harness's
 * processes inside and waits the term grace before the sandbox is killed. What confined a run
 * goes to {@code meta.json}'s {@code sandbox}.
 *
 * <pre>{@code
 * HarnessRunner.builder().stage(SandboxStage.builder().mode(Sandbox.REQUIRED).build())
 * }</pre>
 */
public final class SandboxStage implements RunStage {
    private final Sandbox mode;
    private final SandboxNetwork network;
    private final RunnerSandbox sandbox;

    private SandboxStage(Builder b) {
        this.mode = b.mode;
        this.network = b.network;
        this.sandbox = new RunnerSandbox(b.mode, b.network, b.bwrap, b.readOnly);
    }

    /** Returns a builder: {@link Sandbox#AUTO}, network {@link SandboxNetwork#METER_ONLY}, the usual bwrap. */
    public static Builder builder() {
        return new Builder();
    }

    /** Returns the setting. */
    public Sandbox mode() {
        return mode;
    }

    /** Returns the network a run gets unless its spec says otherwise. */
    public SandboxNetwork network() {
        return network;
    }

    /**
     * Why runs on the given network cannot be confined here (bubblewrap probed once per network),
     * or empty when they can or the sandbox is off.
     *
     * @param metered whether the runs go through the meter (the relay then needs perl)
     * @param requested the runs' network, or {@code null} for this stage's
     * @return the problem, or empty
     */
    public java.util.Optional<String> problem(boolean metered, SandboxNetwork requested) {
        return java.util.Optional.ofNullable(sandbox.problem(metered, sandbox.network(requested)));
    }

    @Override
    public Slot slot() {
        return Slot.SANDBOX;
    }

    @Override
    public String name() {
        return slot().wireName();
    }

    @Override
    public void preflight(RunContext run) {
        if (mode == Sandbox.REQUIRED) {
            sandbox.requireIfRequired(run.metered(), run.spec().sandboxNetwork()); // it cannot run here: refused
        } else {
            sandbox.startProbe(run.spec().sandboxNetwork()); // the first run's checkout goes on while bwrap is probed
        }
    }

    @Override
    public RunOutcome run(RunChain chain) throws InterruptedException {
        RunContext run = chain.run();
        RunStore store = chain.store();
        RunnerServices services = store.require(CoreKeys.SERVICES);
        Path workspace = store.require(RunKeys.WORKSPACE);
        Map<String, Object> section = sandbox.newSection();
        Confinement confinement = sandbox.confine(run.stateDir(), workspace, store.require(RunKeys.SCRATCH_DIR),
                run.baseline().repo(), store.get(RunKeys.METER_PORT).orElse(null), run.spec().sandboxNetwork(),
                services.environment(), section).orElse(null);
        List<MeterRelay> forwards = new ArrayList<>();
        if (confinement != null && run.harness().supportsMcp()) {
            confinement = confinement.including(run.spec().mcpServers()); // stdio servers run inside, as the agent's children
            confinement = forwardMcp(run, confinement, section, forwards);
        }
        if (confinement != null) {
            store.put(CoreKeys.CONFINEMENT, confinement);
        }
        Function<Path, Confinement> step = scratch -> sandbox.confine(run.stateDir(), workspace, scratch,
                run.baseline().repo(), null, run.spec().sandboxNetwork(), services.environment(),
                new java.util.LinkedHashMap<>()).orElse(null);
        store.put(CoreKeys.STEP_CONFINEMENT, step); // an after-harness command: the run's network, without the meter
        if (confinement != null && run.harness().needsProvider() && run.provider().usesCliLogin()
                && "none".equals(section.get("network"))) {
            chain.outcome().note("the sandbox gives this run no network, but provider " + run.provider().name()
                    + " is the CLI's own login, which must reach its vendor: give the run HOST networking (RunSpec or "
                    + "SandboxStage.Builder.network)");
        }
        List<String> unreachable = run.spec().mcpServers().stream()
                .filter(m -> m instanceof McpServer.Http h && !loopback(h))
                .map(McpServer::name).toList();
        if (confinement != null && !unreachable.isEmpty() && !"host".equals(section.get("network"))) {
            chain.outcome().note("the sandbox gives this run no network but the meter and this host's loopback MCP "
                    + "servers, so its HTTP MCP servers " + unreachable + " cannot be reached: give the run HOST "
                    + "networking (RunSpec or SandboxStage.Builder.network), or give them as stdio servers");
        }
        try {
            RunOutcome out = chain.proceed();
            if (out.process() != null) {
                out.section("sandbox", section);
            }
            return out;
        } finally {
            forwards.forEach(MeterRelay::close);
        }
    }

    /**
     * For a run without HOST networking: each HTTP MCP server on this host's loopback is served
     * at its own address inside the sandbox too, through a relay of its own (closed with the run).
     */
    private Confinement forwardMcp(RunContext run, Confinement c, Map<String, Object> section, List<MeterRelay> relays) {
        if (c.network() == SandboxNetwork.HOST || sandbox.perl() == null) {
            return c;
        }
        List<Confinement.Forward> forwards = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (McpServer m : run.spec().mcpServers()) {
            if (m instanceof McpServer.Http h && loopback(h)) {
                int port = h.url().getPort() != -1 ? h.url().getPort() : "https".equals(h.url().getScheme()) ? 443 : 80;
                if (port == c.meterPort() || forwards.stream().anyMatch(f -> f.port() == port)) {
                    continue; // already served inside
                }
                try {
                    MeterRelay r = MeterRelay.start(port);
                    relays.add(r);
                    forwards.add(new Confinement.Forward(port, r.socket()));
                    names.add(m.name());
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException("could not start the relay to MCP server " + m.name(), e);
                }
            }
        }
        if (!names.isEmpty()) {
            section.put("mcp_forwarded", names);
        }
        return c.forwarding(forwards, sandbox.perl());
    }

    /** Whether an HTTP MCP server is on this host's loopback ({@code 127.0.0.1}, {@code localhost}). */
    private static boolean loopback(McpServer.Http h) {
        String host = h.url().getHost();
        return host != null && (host.equals("127.0.0.1") || host.equalsIgnoreCase("localhost"));
    }

    @Override
    public void close() {
        sandbox.close();
    }

    /** Builds a {@link SandboxStage}. */
    public static final class Builder {
        private Sandbox mode = Sandbox.AUTO;
        private SandboxNetwork network = SandboxNetwork.METER_ONLY;
        private Path bwrap = Bubblewrap.DEFAULT_BWRAP;
        private final List<Path> readOnly = new ArrayList<>();

        private Builder() {}

        /**
         * Whether runs are confined: {@link Sandbox#AUTO} (default) when bubblewrap works here,
         * else unconfined with the reason in {@code meta.json}; {@link Sandbox#REQUIRED} refuses a
         * run, before anything starts, when it cannot; {@link Sandbox#OFF} never.
         *
         * @param value the setting
         * @return this builder
         */
        public Builder mode(Sandbox value) {
            this.mode = Objects.requireNonNull(value, "sandbox");
            return this;
        }

        /**
         * What a confined run may reach: default {@link SandboxNetwork#METER_ONLY}; {@code HOST}
         * for package installs; a run's spec may choose its own.
         *
         * @param value the network
         * @return this builder
         */
        public Builder network(SandboxNetwork value) {
            this.network = Objects.requireNonNull(value, "sandboxNetwork");
            return this;
        }

        /**
         * The {@code bwrap} executable; default {@link Bubblewrap#DEFAULT_BWRAP}.
         *
         * @param value its path
         * @return this builder
         */
        public Builder bwrap(Path value) {
            this.bwrap = Objects.requireNonNull(value, "bwrapExecutable");
            return this;
        }

        /**
         * A path a confined run may read (read-only at its own path), even when under the real
         * HOME; the system, the baseline and the tools dir it always may.
         *
         * @param dir the directory
         * @return this builder
         */
        public Builder readOnly(Path dir) {
            this.readOnly.add(Objects.requireNonNull(dir, "dir").toAbsolutePath().normalize());
            return this;
        }

        /** Returns the stage. */
        public SandboxStage build() {
            return new SandboxStage(this);
        }
    }
}
