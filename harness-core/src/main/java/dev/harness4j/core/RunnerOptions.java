package dev.harness4j.core;

import dev.harness4j.api.HarnessListener;
import dev.harness4j.api.ProviderResolver;
import dev.harness4j.core.internal.util.Checks;
import dev.harness4j.core.internal.workspace.Workspaces;
import dev.harness4j.core.pipeline.Key;
import dev.harness4j.core.pipeline.RunStage;
import dev.harness4j.core.pipeline.Slot;
import dev.harness4j.core.process.ProcessSupervisor;
import dev.harness4j.core.process.RunEnvironment;
import dev.harness4j.core.stages.MeterStage;
import dev.harness4j.core.stages.SandboxStage;
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
abstract class RunnerOptions extends StageOptions {
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

    RunnerOptions() {}

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
}
