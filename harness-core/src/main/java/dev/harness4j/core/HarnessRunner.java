package dev.harness4j.core;

import dev.harness4j.api.Harness;
import dev.harness4j.api.HarnessListener;
import dev.harness4j.api.ProviderNotResolvableException;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.RunSpec;
import dev.harness4j.core.internal.workspace.Workspaces;
import dev.harness4j.core.pipeline.RunStage;
import dev.harness4j.core.process.RunEnvironment;
import dev.harness4j.core.stages.BranchPushStage;
import dev.harness4j.core.stages.LoginProbeStage;
import dev.harness4j.core.stages.ServedModelStage;
import dev.harness4j.core.workspace.KeptWorkspace;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs one harness on one task in an isolated checkout, guarded, and captures the result, as a
 * chain of stages ({@code dev.harness4j.core.pipeline}): record → workspace → after-harness →
 * branch push → phase report → served model → gateway → meter → sandbox → login probe → the
 * harness process. Thread-safe: concurrent {@link #run} calls are independent.
 *
 * <pre>{@code
 * try (HarnessRunner runner = HarnessRunner.builder()
 *         .stateDir(Path.of("/var/h4j"))
 *         .providers(myResolver)
 *         .stage(SandboxStage.builder().mode(Sandbox.REQUIRED).build())
 *         .build()) {
 *     RunRecord record = runner.run(RunSpec.builder("opencode", "local")
 *             .model("gemma4:31b").prompt("Add a README").baseline(Path.of("/src/repo")).build());
 *     System.out.println(record.result().outcome() + " -> " + record.resultDir());
 * }
 * }</pre>
 *
 * <p>Bad input detectable before anything starts (unknown harness, CLI not installed, provider
 * not resolvable, baseline not a repository, unknown ref, state dir not writable, a stage's own
 * preflight) throws the matching {@link dev.harness4j.api.HarnessException} and writes nothing.
 * Once the run has started, every failure ends with a result on disk whose {@code outcome} is
 * {@code error} and whose {@code stage} and {@code reason} say where and why. The run's directory
 * under {@code <stateDir>/runs/<runId>} is removed after capture.
 *
 * <p>By default each run's model traffic goes through the runner's metering proxy ({@code
 * MeterStage}: tokens, cost, served model and error class from the wire, the same for every
 * harness; budgets) and each process is confined by bubblewrap where it works ({@code
 * SandboxStage}, network to the meter only).
 */
public final class HarnessRunner implements AutoCloseable {
    /** How long pushing a result branch may take: 2 minutes. */
    public static final Duration DEFAULT_PUSH_TIMEOUT = BranchPushStage.DEFAULT_TIMEOUT;
    /** How long a login probe's clear answer is reused by later runs with the same configuration: 5 minutes. */
    public static final Duration DEFAULT_LOGIN_CACHE_TTL = LoginProbeStage.DEFAULT_CACHE_TTL;
    /** How long an adapter's login probe may run before the login is recorded as unknown: 20 s. */
    public static final Duration DEFAULT_LOGIN_TIMEOUT = LoginProbeStage.DEFAULT_TIMEOUT;
    /**
     * The model named in the context of a run whose harness needs no provider ({@link
     * dev.harness4j.api.Harness#needsProvider()}) when its spec names none: {@value}.
     */
    public static final String NO_MODEL = "none";

    private final HarnessRegistry registry;
    private final Installations installations;
    private final ProviderLookup providers;
    private final Workspaces workspaces;
    private final ResultIndex results;
    private final List<RunStage> stages;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final RunnerRuns runs;

    private HarnessRunner(Builder b) {
        this.stages = RunnerStages.assemble(b);
        this.registry = b.registry != null ? b.registry : HarnessRegistry.fromServices(b.stateDir);
        RunEnvironment runEnvironment = b.runEnvironment();
        this.installations = b.installations != null ? b.installations
                : Installations.builder().runEnvironment(runEnvironment).build();
        this.providers = ProviderLookup.of(b.providers, b.discoverProviders);
        this.workspaces = Workspaces.builder().stateDir(b.stateDir).gitExecutable(b.gitExecutable).build();
        this.results = ResultIndex.of(workspaces.stateDir());
        this.runs = new RunnerRuns(b, stages, registry, installations, providers, workspaces, runEnvironment,
                closed);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The state dir: {@code runs/} and {@code results/} live below it. */
    public Path stateDir() {
        return workspaces.stateDir();
    }

    /**
     * The results in this runner's state dir, one directory per run ({@code
     * results/<task>/<harness>__<provider>__<model>/<runId>/}), found by task, harness, provider
     * and model.
     */
    public ResultIndex results() {
        return results;
    }

    /** How firmly this runner requires the served model to be the requested one (its served-model stage's). */
    public Requirement servedModelRequirement() {
        return stage(ServedModelStage.class).map(ServedModelStage::requirement).orElse(Requirement.OFF);
    }

    /** The names of the stages every run goes through, outermost first. */
    public List<String> stageNames() {
        return stages.stream().map(RunStage::name).toList();
    }

    /**
     * The built-in stage of a type this runner runs, e.g. {@code stage(SandboxStage.class)} to ask
     * whether its runs can be confined here.
     *
     * @param type the stage's class
     * @param <S> the stage's type
     * @return the stage, or empty when the runner has none of that type
     */
    public <S extends RunStage> Optional<S> stage(Class<S> type) {
        return stages.stream().filter(type::isInstance).map(type::cast).findFirst();
    }

    /** The resolvers this runner asks, in order (the given ones, then the discovered ones); for {@link Preflight}. */
    List<dev.harness4j.api.ProviderResolver> providerResolvers() {
        return providers.resolvers();
    }

    /** The adapters this runner knows. */
    public HarnessRegistry registry() {
        return registry;
    }

    /** Where this runner finds the CLIs. */
    public Installations installations() {
        return installations;
    }

    /**
     * Resolves a provider and model the way a run does: the resolvers in order, the first
     * non-empty answer wins.
     *
     * @param model the requested model, or {@code null} for the provider's default
     * @throws ProviderNotResolvableException when no resolver knows the provider, or it cannot
     *     be resolved (no model, say); the message lists the known providers
     */
    public ResolvedProvider resolveProvider(String provider, String model) {
        return providers.resolve(Objects.requireNonNull(provider, "provider"), model);
    }

    /** Runs a spec under a fresh run id; see {@link #run(RunSpec, String)}. */
    public RunRecord run(RunSpec spec) {
        return run(spec, runs.newRunId());
    }

    /** Runs a spec under the given run id; see {@link #run(RunSpec, String, HarnessListener)}. */
    public RunRecord run(RunSpec spec, String runId) {
        return run(spec, runId, HarnessListener.NONE);
    }

    /**
     * Runs a spec under the given run id and blocks until its result is on disk.
     *
     * @param runId a unique id ({@code [A-Za-z0-9][A-Za-z0-9._-]*}), so that {@link #bail} can
     *     be called before this returns
     * @param listener receives this run's events, after the runner's own listener
     * @throws dev.harness4j.api.UnknownHarnessException when no adapter has the spec's harness id
     * @throws dev.harness4j.api.HarnessNotInstalledException when the harness's CLI is missing
     * @throws ProviderNotResolvableException when no resolver knows the provider, or it cannot be resolved
     *     (never for a harness that needs no provider: its spec's provider and model are labels)
     * @throws dev.harness4j.core.workspace.NotAGitRepositoryException for a baseline that is no repository
     * @throws dev.harness4j.core.workspace.UnknownRefException for a ref that names no commit
     * @throws dev.harness4j.core.workspace.StateDirNotWritableException when the state dir cannot be written
     * @throws IllegalArgumentException when the run id does not match the pattern (e.g. {@code ../x}),
     *     or the spec has MCP servers and its harness does not {@linkplain Harness#supportsMcp() support
     *     MCP}, before any file is created
     * @throws IllegalStateException when this runner is closed
     */
    public RunRecord run(RunSpec spec, String runId, HarnessListener listener) {
        return run(spec, runId, listener, AfterHarness.NONE);
    }

    /**
     * Runs a spec as {@link #run(RunSpec, String, HarnessListener)} does, with a step that runs
     * after the harness process has ended, in the workspace with the agent's changes in place,
     * before the workspace is deleted and the result written (a bench's verifier, say).
     *
     * @param afterHarness the step; {@link AfterHarness#NONE} for none
     * @return the run's record, with the step's {@link RunRecord#sections()}
     */
    public RunRecord run(RunSpec spec, String runId, HarnessListener listener, AfterHarness afterHarness) {
        return runs.run(spec, runId, listener, afterHarness, null);
    }

    /**
     * Gives a finished run's agent a follow-up prompt in its own session and workspace (Claude
     * Code's {@code --resume}, say): a run of its own, under a fresh run id, whose diff starts at
     * the previous run's end and whose {@code meta.json} names the previous run in {@code
     * parent_run_id}. The previous run must have been kept ({@link Builder#keepWorkspace}); each
     * kept run takes one follow-up (which may be kept in turn).
     *
     * @param previous the finished run, as {@link #run} returned it
     * @param prompt what to ask next
     * @throws IllegalArgumentException when the harness cannot resume a session
     * @throws IllegalStateException when the previous run's workspace was not kept, was continued already, or expired
     */
    public RunRecord followUp(RunRecord previous, String prompt) {
        Objects.requireNonNull(previous, "previous");
        return followUp(previous.runId(), previous.spec().withPrompt(Objects.requireNonNull(prompt, "prompt")),
                runs.newRunId(), HarnessListener.NONE);
    }

    /**
     * {@link #followUp(RunRecord, String)} of a run known only by its id (from another process or
     * an earlier one, say): the follow-up's spec is the kept run's harness, provider, model and
     * baseline with this prompt (the kept run's options and limits are not kept; give a spec of
     * your own with {@link #followUp(String, RunSpec, String, HarnessListener)} for those).
     *
     * @throws IllegalStateException when the run has no kept workspace (never kept, continued
     *     already, expired)
     */
    public RunRecord followUp(String previousRunId, String prompt) {
        RunSpec spec = runs.followUpSpec(previousRunId, prompt);
        return followUp(previousRunId, spec, runs.newRunId(), HarnessListener.NONE);
    }

    /** {@link #followUp(String, RunSpec, String, HarnessListener)} under a fresh run id. */
    public RunRecord followUp(String previousRunId, RunSpec spec) {
        return followUp(previousRunId, spec, runs.newRunId(), HarnessListener.NONE);
    }

    /**
     * {@link #followUp(RunRecord, String)} of a run known by its id (from another process, say),
     * with the follow-up's spec (its prompt the follow-up prompt, its harness the previous
     * run's; see {@link #keptWorkspace(String)}), under the given run id.
     */
    public RunRecord followUp(String previousRunId, RunSpec spec, String runId, HarnessListener listener) {
        return followUp(previousRunId, spec, runId, listener, AfterHarness.NONE);
    }

    /**
     * {@link #followUp(String, RunSpec, String, HarnessListener)} with a step after the harness
     * process, as {@link #run(RunSpec, String, HarnessListener, AfterHarness)} takes one (a job's
     * phase collects its work with one).
     */
    public RunRecord followUp(String previousRunId, RunSpec spec, String runId, HarnessListener listener,
            AfterHarness afterHarness) {
        return runs.followUp(previousRunId, spec, runId, listener, afterHarness);
    }

    /** The kept workspace of a finished run, if it waits for a follow-up ({@link Builder#keepWorkspace}). */
    public Optional<KeptWorkspace> keptWorkspace(String runId) {
        return runs.keptWorkspace(runId);
    }

    /**
     * Bails a run from any thread: a running process is stopped (outcome {@code bailed}); a run
     * still preparing ends as {@code bailed} before its process starts.
     *
     * @return true when the run will end as {@code bailed}; false when no run with this id is
     *     going on, its harness process has already ended (its result is being captured), or
     *     another stop was decided first
     */
    public boolean bail(String runId) {
        return runs.bail(Objects.requireNonNull(runId, "runId"));
    }

    /** Stops every running run (they end as {@code bailed} with their results written); idempotent. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            runs.stopRuns();
            for (int i = stages.size() - 1; i >= 0; i--) {
                stages.get(i).close();
            }
            runs.shutdownHousekeeping(); // runs still ending delete their checkouts themselves
        }
    }

    /** Builds a {@link HarnessRunner}; its settings are documented on each method. */
    public static final class Builder extends RunnerOptions {
        private Builder() {}

        /**
         * Builds the runner.
         *
         * @throws IllegalStateException for settings that cannot work together (a login required
         *     without the probe, a rate-limit stop or a meter-only sandbox without metering)
         */
        public HarnessRunner build() {
            return new HarnessRunner(this);
        }
    }
}
