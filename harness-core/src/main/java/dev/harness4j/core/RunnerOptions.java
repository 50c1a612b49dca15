package dev.harness4j.core;

import dev.harness4j.api.HarnessListener;
import dev.harness4j.api.ProviderResolver;
import dev.harness4j.api.SandboxNetwork;
import dev.harness4j.core.internal.Checks;
import dev.harness4j.core.internal.workspace.Workspaces;
import dev.harness4j.core.pipeline.Key;
import dev.harness4j.core.pipeline.RunStage;
import dev.harness4j.core.pipeline.Slot;
import dev.harness4j.core.internal.process.Bubblewrap;
import dev.harness4j.core.process.ProcessSupervisor;
import dev.harness4j.core.process.RunEnvironment;
import dev.harness4j.core.process.Sandbox;
import dev.harness4j.core.provider.GatewayOptions;
import dev.harness4j.core.provider.PriceList;
import dev.harness4j.core.stages.BranchPushStage;
import dev.harness4j.core.stages.GatewayStage;
import dev.harness4j.core.stages.LoginProbeStage;
import dev.harness4j.core.stages.MeterStage;
import dev.harness4j.core.stages.PhaseReportStage;
import dev.harness4j.core.stages.SandboxStage;
import dev.harness4j.core.stages.ServedModelStage;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The settings of a {@link HarnessRunner.Builder}: the runner's own, the stages it runs, and the
 * settings of the built-in stages kept for one release (deprecated: configure the stage and give
 * it to {@link #stage(RunStage)} instead).
 */
abstract class RunnerOptions {
    Path stateDir = Workspaces.defaultStateDir();
    HarnessRegistry registry;
    Installations installations;
    final List<ProviderResolver> providers = new ArrayList<>();
    HarnessListener listener = HarnessListener.NONE;
    Duration termGrace = ProcessSupervisor.DEFAULT_TERM_GRACE;
    Duration keepWorkspace;
    Map<String, String> environment;
    Map<String, String> runnerEnvironment;
    final java.util.LinkedHashSet<String> inheritEnvironment = new java.util.LinkedHashSet<>();
    String gitExecutable = "git";
    boolean autonomyPreamble = true;
    final List<RunObserver> observers = new ArrayList<>();
    final List<RunStage> stages = new ArrayList<>();
    final Set<Slot> without = EnumSet.noneOf(Slot.class);
    boolean discoverStages = true;
    boolean discoverProviders = true;
    final Map<Key<?>, Object> settings = new IdentityHashMap<>();

    // the built-in stages' settings, as the runner's builder took them before stages had builders
    boolean pushBranches;
    final BranchPushStage.Builder push = BranchPushStage.builder();
    PhaseReports phaseReports;
    boolean loginProbe = true;
    final LoginProbeStage.Builder login = LoginProbeStage.builder();
    Requirement requireLogin = Requirement.OFF;
    boolean metering = true;
    final MeterStage.Builder meter = MeterStage.builder();
    Integer stopAfterRateLimits;
    Requirement requireServedModel = Requirement.OFF;
    GatewayOptions gateway = GatewayOptions.defaults();
    Sandbox sandboxMode = Sandbox.AUTO;
    SandboxNetwork sandboxNetwork = SandboxNetwork.METER_ONLY;
    final SandboxStage.Builder sandbox = SandboxStage.builder();

    RunnerOptions() {}

    private HarnessRunner.Builder self() {
        return (HarnessRunner.Builder) this;
    }

    /**
     * Adds a stage to every run: a user's own (placed just inside the built-in stage of its
     * {@link RunStage#slot()}, several of one slot in the order added), or a built-in stage
     * configured by its builder ({@code MeterStage}, {@code SandboxStage}, ...), which replaces the
     * runner's default one of that slot (and the deprecated settings for it).
     *
     * @param value the stage; it belongs to this runner (closed with it)
     * @return this builder
     * @throws IllegalArgumentException for a stage of the terminal slot {@link Slot#HARNESS}
     */
    public HarnessRunner.Builder stage(RunStage value) {
        Objects.requireNonNull(value, "stage");
        if (value.slot() == Slot.HARNESS) {
            throw new IllegalArgumentException("stage " + value.name() + " takes the terminal slot HARNESS, which is the "
                    + "runner's own (the harness process); give it another slot");
        }
        stages.add(value);
        return self();
    }

    /**
     * Leaves the built-in stage of a slot out of every run (and any stage found for it): {@code
     * without(Slot.METER)} runs unmetered, {@code without(Slot.LOGIN_PROBE)} never probes.
     *
     * @param slot a slot other than {@link Slot#RECORD}, {@link Slot#WORKSPACE} and {@link Slot#HARNESS}
     * @return this builder
     * @throws IllegalArgumentException for a slot every run needs
     */
    public HarnessRunner.Builder without(Slot slot) {
        Objects.requireNonNull(slot, "slot");
        if (slot == Slot.RECORD || slot == Slot.WORKSPACE || slot == Slot.HARNESS) {
            throw new IllegalArgumentException("every run needs its " + slot.wireName() + " stage; it cannot be left out");
        }
        without.add(slot);
        return self();
    }

    /**
     * Whether stages registered for {@link java.util.ServiceLoader} ({@code RunStageFactory}) join every
     * run; default true.
     *
     * @param value whether to look for them
     * @return this builder
     */
    public HarnessRunner.Builder discoverStages(boolean value) {
        this.discoverStages = value;
        return self();
    }

    /**
     * A setting for the stages found through {@link java.util.ServiceLoader} (they read it from
     * their {@code StageSetup}).
     *
     * @param key the setting's key, declared by the stage that reads it
     * @param value its value
     * @param <T> the value's type
     * @return this builder
     */
    public <T> HarnessRunner.Builder setting(Key<T> key, T value) {
        settings.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
        return self();
    }

    /** Where runs and results go; default {@code ~/.harness4j}. */
    public HarnessRunner.Builder stateDir(Path value) {
        this.stateDir = Objects.requireNonNull(value, "stateDir");
        return self();
    }

    /** The adapters; default every adapter on the class path ({@link HarnessRegistry#fromServices()}). */
    public HarnessRunner.Builder registry(HarnessRegistry value) {
        this.registry = Objects.requireNonNull(value, "registry");
        return self();
    }

    /** Where CLIs are found; default {@link Installations#defaults()}. */
    public HarnessRunner.Builder installations(Installations value) {
        this.installations = Objects.requireNonNull(value, "installations");
        return self();
    }

    /**
     * Whether {@link ProviderResolver}s registered for {@link java.util.ServiceLoader} (an
     * installed resolver jar) are asked after the ones given to {@link #providers}; default true.
     *
     * @param value whether to look for them
     * @return this builder
     */
    public HarnessRunner.Builder discoverProviders(boolean value) {
        this.discoverProviders = value;
        return self();
    }

    /** Provider resolvers, asked in order; the first non-empty answer wins (then the discovered ones). */
    public HarnessRunner.Builder providers(ProviderResolver... values) {
        for (ProviderResolver r : values) {
            providers.add(Objects.requireNonNull(r, "provider resolver"));
        }
        return self();
    }

    /** Receives every run's events; default none. */
    public HarnessRunner.Builder listener(HarnessListener value) {
        this.listener = Objects.requireNonNull(value, "listener");
        return self();
    }

    /** Between TERM and KILL when a run is stopped; default {@link ProcessSupervisor#DEFAULT_TERM_GRACE}. */
    public HarnessRunner.Builder termGrace(Duration value) {
        this.termGrace = Checks.positive(value, "termGrace");
        return self();
    }

    /**
     * Keeps each finished run's workspace and scratch dir for a follow-up prompt ({@link
     * HarnessRunner#followUp(RunRecord, String)}) for this long: the agent's changes are committed in
     * the checkout, and the agent's session stays in the scratch dir. Only for a cloned workspace
     * ({@code Isolation.CLONE}) of a harness that {@linkplain dev.harness4j.api.Harness#supportsFollowUp()
     * resumes sessions} and reported one; {@code meta.json}'s {@code kept_workspace} says until when.
     * Expired workspaces are removed when a runner is built on the state dir. Default: never kept.
     *
     * @param value a positive time
     */
    public HarnessRunner.Builder keepWorkspace(Duration value) {
        this.keepWorkspace = Checks.positive(value, "keepWorkspace");
        return self();
    }

    /**
     * Variables every process of a run gets, all of them, as given (explicit: put here only what
     * the CLIs may hold); default none. Adapters see them in {@code HarnessContext.environment()}
     * over the {@linkplain #runnerEnvironment runner's environment}. What a process starts from is
     * {@link RunEnvironment}'s rule: the allowlist ({@code PATH}, {@code HOME}, {@code LANG},
     * {@code LANGUAGE}, {@code LC_*}, {@code TERM}, {@code TZ}) and the {@linkplain
     * #inheritEnvironment inherited} names from the runner's environment, then these variables;
     * nothing else of the runner's environment reaches a process, sandboxed or not.
     *
     * @param value name → value
     * @return this builder
     */
    public HarnessRunner.Builder environment(Map<String, String> value) {
        this.environment = Map.copyOf(Objects.requireNonNull(value, "environment"));
        return self();
    }

    /**
     * The runner's own environment; default {@code System.getenv()}. Adapters see it (under
     * {@link #environment(Map)}) in {@code HarnessContext.environment()}, e.g. to find HOME; a
     * run's processes get only {@link RunEnvironment}'s allowlist and the {@linkplain
     * #inheritEnvironment inherited} names from it.
     *
     * @param value name → value
     * @return this builder
     */
    public HarnessRunner.Builder runnerEnvironment(Map<String, String> value) {
        this.runnerEnvironment = Map.copyOf(Objects.requireNonNull(value, "runnerEnvironment"));
        return self();
    }

    /**
     * Names copied from the {@linkplain #runnerEnvironment runner's environment} into every
     * process of a run (when set there), beyond {@link RunEnvironment#ALLOWED}: {@code
     * inheritEnvironment("HTTPS_PROXY", "NODE_EXTRA_CA_CERTS")}. Calls add up.
     *
     * @param names variable names
     * @return this builder
     */
    public HarnessRunner.Builder inheritEnvironment(String... names) {
        for (String n : names) {
            inheritEnvironment.add(RunEnvironment.requireName(n));
        }
        return self();
    }

    /** The rule a run's processes (and the default installations' version probe) start from. */
    RunEnvironment runEnvironment() {
        return RunEnvironment.of(runnerEnvironment != null ? runnerEnvironment : System.getenv())
                .inherit(inheritEnvironment).with(environment != null ? environment : Map.of());
    }

    /** What adapters see: the runner's environment under the explicit variables. */
    Map<String, String> adapterEnvironment() {
        Map<String, String> m = new java.util.HashMap<>(runnerEnvironment != null ? runnerEnvironment : System.getenv());
        if (environment != null) {
            m.putAll(environment);
        }
        return m;
    }

    /** The git binary; default {@code git} on {@code PATH}. */
    public HarnessRunner.Builder gitExecutable(String value) {
        this.gitExecutable = Objects.requireNonNull(value, "gitExecutable");
        return self();
    }

    /**
     * Whether every prompt is framed by the {@link AutonomyPreamble} (a headless run has no one to
     * answer questions) before the adapter sees it; idempotent; default true. With {@code false},
     * and no explicit {@link #phaseReports(PhaseReports)}, the prompt reaches the adapter exactly
     * as the caller wrote it (no phase-report contract either).
     */
    public HarnessRunner.Builder autonomyPreamble(boolean value) {
        this.autonomyPreamble = value;
        return self();
    }

    /**
     * Adds an observer told about each finished run once its result is written (for exporters:
     * harness-otel's spans, for one); observers are called in the order added.
     */
    public HarnessRunner.Builder observer(RunObserver value) {
        this.observers.add(Objects.requireNonNull(value, "observer"));
        return self();
    }

    /**
     * Whether each result is pushed to a branch of the baseline's remote; default false.
     *
     * @deprecated give {@code stage(BranchPushStage.builder().build())}
     */
    @Deprecated
    public HarnessRunner.Builder pushBranches(boolean value) {
        this.pushBranches = value;
        return self();
    }

    /**
     * How long a result branch push may take; default {@link HarnessRunner#DEFAULT_PUSH_TIMEOUT}.
     *
     * @deprecated use {@code BranchPushStage.builder().timeout(..)}
     */
    @Deprecated
    public HarnessRunner.Builder pushTimeout(Duration value) {
        push.timeout(Checks.positive(value, "pushTimeout"));
        return self();
    }

    /**
     * How each run's phase report is found; default {@link PhaseReports#DEFAULT}, or {@link
     * PhaseReports#GIT_ONLY} when {@link #autonomyPreamble(boolean)} is off.
     *
     * @deprecated give {@code stage(PhaseReportStage.of(..))}
     */
    @Deprecated
    public HarnessRunner.Builder phaseReports(PhaseReports value) {
        this.phaseReports = Objects.requireNonNull(value, "phaseReports");
        return self();
    }

    /**
     * Whether the adapter's login probe runs before the main process; default true.
     *
     * @deprecated use {@code without(Slot.LOGIN_PROBE)}
     */
    @Deprecated
    public HarnessRunner.Builder loginProbe(boolean value) {
        this.loginProbe = value;
        return self();
    }

    /**
     * How long a login probe's clear answer is reused; default {@link HarnessRunner#DEFAULT_LOGIN_CACHE_TTL}.
     *
     * @deprecated use {@code LoginProbeStage.builder().cacheTtl(..)}
     */
    @Deprecated
    public HarnessRunner.Builder loginCacheTtl(Duration value) {
        login.cacheTtl(value);
        return self();
    }

    /**
     * The login probe's max runtime; default {@link HarnessRunner#DEFAULT_LOGIN_TIMEOUT}.
     *
     * @deprecated use {@code LoginProbeStage.builder().timeout(..)}
     */
    @Deprecated
    public HarnessRunner.Builder loginTimeout(Duration value) {
        login.timeout(value);
        return self();
    }

    /**
     * Whether the CLI must be logged in before its run starts; default {@link Requirement#OFF}.
     *
     * @deprecated use {@code LoginProbeStage.builder().require(..)}
     */
    @Deprecated
    public HarnessRunner.Builder requireLogin(Requirement value) {
        this.requireLogin = Objects.requireNonNull(value, "requireLogin");
        login.require(value);
        return self();
    }

    /**
     * Whether each run's model traffic goes through the metering proxy; default true.
     *
     * @deprecated use {@code without(Slot.METER)}, or configure {@code MeterStage}
     */
    @Deprecated
    public HarnessRunner.Builder metering(boolean value) {
        this.metering = value;
        return self();
    }

    /**
     * Whether metered runs keep their model calls' bodies; default false.
     *
     * @deprecated use {@code MeterStage.builder().recordBodies(..)}
     */
    @Deprecated
    public HarnessRunner.Builder recordBodies(boolean value) {
        meter.recordBodies(value);
        return self();
    }

    /**
     * How many 429s in a row stop a metered run; unset, each adapter's own.
     *
     * @deprecated use {@code MeterStage.builder().stopAfterRateLimits(..)}
     */
    @Deprecated
    public HarnessRunner.Builder stopAfterRateLimits(int value) {
        meter.stopAfterRateLimits(value);
        this.stopAfterRateLimits = value;
        return self();
    }

    /**
     * Prices of models, for a cost from metered tokens.
     *
     * @deprecated use {@code MeterStage.builder().prices(..)}
     */
    @Deprecated
    public HarnessRunner.Builder prices(PriceList value) {
        meter.prices(value);
        return self();
    }

    /**
     * Whether a run must be served by the model it asked for; default {@link Requirement#OFF}.
     *
     * @deprecated give {@code stage(ServedModelStage.of(..))}
     */
    @Deprecated
    public HarnessRunner.Builder requireServedModel(Requirement value) {
        this.requireServedModel = Objects.requireNonNull(value, "requireServedModel");
        return self();
    }

    /**
     * How runs on a provider with a gateway are accounted; default {@link GatewayOptions#defaults()}.
     *
     * @deprecated give {@code stage(GatewayStage.of(..))}
     */
    @Deprecated
    public HarnessRunner.Builder gateway(GatewayOptions value) {
        this.gateway = Objects.requireNonNull(value, "gateway");
        return self();
    }

    /**
     * Whether each harness process is confined in a bubblewrap sandbox; default {@link Sandbox#AUTO}.
     *
     * @deprecated use {@code SandboxStage.builder().mode(..)}
     */
    @Deprecated
    public HarnessRunner.Builder sandbox(Sandbox value) {
        this.sandboxMode = Objects.requireNonNull(value, "sandbox");
        sandbox.mode(value);
        return self();
    }

    /**
     * What a confined run may reach; default {@link SandboxNetwork#METER_ONLY}.
     *
     * @deprecated use {@code SandboxStage.builder().network(..)}
     */
    @Deprecated
    public HarnessRunner.Builder sandboxNetwork(SandboxNetwork value) {
        this.sandboxNetwork = Objects.requireNonNull(value, "sandboxNetwork");
        sandbox.network(value);
        return self();
    }

    /**
     * The {@code bwrap} executable; default {@link Bubblewrap#DEFAULT_BWRAP}.
     *
     * @deprecated use {@code SandboxStage.builder().bwrap(..)}
     */
    @Deprecated
    public HarnessRunner.Builder bwrapExecutable(Path value) {
        sandbox.bwrap(value);
        return self();
    }

    /**
     * A directory a confined run may read even when under the real HOME.
     *
     * @deprecated use {@code SandboxStage.builder().readOnly(..)}
     */
    @Deprecated
    public HarnessRunner.Builder sandboxReadOnly(Path dir) {
        sandbox.readOnly(dir);
        return self();
    }
}
