package dev.harness4j.core;

import dev.harness4j.api.Harness;
import dev.harness4j.api.HarnessListener;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.RunSpec;
import dev.harness4j.core.internal.capture.ResultStore;
import dev.harness4j.core.internal.run.RunnerServices;
import dev.harness4j.core.internal.run.StageChain;
import dev.harness4j.core.internal.workspace.ChangeCollector;
import dev.harness4j.core.internal.workspace.KeptWorkspaces;
import dev.harness4j.core.internal.workspace.Workspaces;
import dev.harness4j.core.pipeline.RunContext;
import dev.harness4j.core.pipeline.RunStage;
import dev.harness4j.core.pipeline.Slot;
import dev.harness4j.core.process.ProcessSupervisor;
import dev.harness4j.core.process.RunEnvironment;
import dev.harness4j.core.workspace.KeptWorkspace;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The runs of a {@link HarnessRunner}, each from its spec to its record: the argument checks, the
 * runner's own checks that write nothing (harness, MCP servers, CLI, provider, baseline, each
 * stage's preflight, the state dir), the chain of stages; the runs going on (to bail them), the
 * workspaces kept for a follow-up, and the cleanup of finished runs. Thread-safe.
 */
final class RunnerRuns {
    private final HarnessRegistry registry;
    private final Installations installations;
    private final ProviderLookup providers;
    private final Workspaces workspaces;
    private final ResultStore store;
    private final List<RunStage> stages;
    private final boolean metering;
    private final RunnerServices services;
    private final HarnessListener listener;
    private final boolean autonomyPreamble;
    private final ExecutorService housekeeping = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "harness4j-cleanup"); // deletes a finished run's checkout while its result is written
        t.setDaemon(true);
        return t;
    });
    private final ProcessSupervisor supervisor;
    private final RunsInFlight inFlight;
    private final KeptWorkspaces keptWorkspaces;
    private final AtomicBoolean closed;

    /**
     * @param closed the runner's closed flag, set by {@link HarnessRunner#close()}; read here only
     */
    RunnerRuns(RunnerOptions options, List<RunStage> stages, HarnessRegistry registry, Installations installations,
            ProviderLookup providers, Workspaces workspaces, RunEnvironment runEnvironment, AtomicBoolean closed) {
        this.registry = registry;
        this.installations = installations;
        this.providers = providers;
        this.workspaces = workspaces;
        this.stages = stages;
        this.listener = options.listener;
        this.autonomyPreamble = options.autonomyPreamble;
        this.closed = closed;
        this.store = new ResultStore(workspaces.stateDir());
        this.supervisor = ProcessSupervisor.builder().termGrace(options.termGrace).build();
        this.inFlight = new RunsInFlight(supervisor);
        this.metering = stages.stream().anyMatch(s -> s.slot() == Slot.METER);
        this.services = new RunnerServices(workspaces, new ChangeCollector(workspaces), store, supervisor,
                installations, options.adapterEnvironment(), runEnvironment, RunnerIdentity.runningAsRoot(),
                housekeeping, options.observers, providers.resolvers(), providers::resolve, inFlight::processEnded);
        this.keptWorkspaces = new KeptWorkspaces(workspaces);
        housekeeping.submit(() -> keptWorkspaces.sweepExpired(Instant.now())); // what waited for a follow-up in vain
    }

    /** A fresh run id (see {@link RunsInFlight#newRunId()}). */
    String newRunId() {
        return inFlight.newRunId();
    }

    /** The kept workspace of a finished run, if it waits for a follow-up. */
    Optional<KeptWorkspace> keptWorkspace(String runId) {
        return keptWorkspaces.find(runId);
    }

    /**
     * The spec of a follow-up of a kept run with only a prompt: the kept run's harness, provider,
     * model and baseline, cloned.
     *
     * @throws IllegalStateException when the run has no kept workspace
     */
    RunSpec followUpSpec(String previousRunId, String prompt) {
        Objects.requireNonNull(prompt, "prompt");
        KeptWorkspace k = keptWorkspace(Objects.requireNonNull(previousRunId, "previousRunId"))
                .orElseThrow(() -> FollowUps.notKept(previousRunId));
        return RunSpec.builder(k.harness(), k.provider()).model(k.model()).prompt(prompt)
                .baseline(k.baseline()).ref(k.ref()).isolation(dev.harness4j.api.Isolation.CLONE).build();
    }

    /** A follow-up run of {@code previousRunId}: checked by {@link FollowUps#require}, then {@link #run}. */
    RunRecord followUp(String previousRunId, RunSpec spec, String runId, HarnessListener listener,
            AfterHarness afterHarness) {
        Objects.requireNonNull(spec, "spec");
        Workspaces.requireValidRunId(runId);
        KeptWorkspace kept = FollowUps.require(registry, keptWorkspaces, Objects.requireNonNull(previousRunId,
                "previousRunId"), spec);
        return run(spec, runId, listener, afterHarness, kept);
    }

    /**
     * Runs a spec and blocks until its result is on disk.
     *
     * @param followUp the kept workspace the run continues in, or {@code null} for a new run
     */
    RunRecord run(RunSpec spec, String runId, HarnessListener listener, AfterHarness afterHarness,
            KeptWorkspace followUp) {
        Objects.requireNonNull(afterHarness, "afterHarness");
        Workspaces.requireValidRunId(runId); // first: the id becomes a path, nothing may be created before
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(listener, "listener");
        if (closed.get()) {
            throw new IllegalStateException("this HarnessRunner is closed; build a new one to run " + spec.harness());
        }
        AtomicBoolean bailed = inFlight.start(runId);
        try {
            return launch(spec, runId, listener, afterHarness, followUp, bailed);
        } catch (InterruptedException e) { // the record stage turns every interrupt into a result; kept for safety
            Thread.currentThread().interrupt();
            throw new IllegalStateException("run " + runId + " was interrupted before its result was written", e);
        } finally {
            inFlight.end(runId, bailed);
        }
    }

    private RunRecord launch(RunSpec spec, String runId, HarnessListener listener, AfterHarness afterHarness,
            KeptWorkspace followUp, AtomicBoolean bailed) throws InterruptedException {
        long t0 = System.nanoTime(); // the runner's own checks: "preflight" in the record's stage times
        Harness harness = registry.require(spec.harness());
        McpRefusal.of(registry, harness, spec.mcpServers())
                .or(() -> McpRefusal.missingEnvironment(spec.mcpServers(), services.environment())).ifPresent(why -> {
                    throw new IllegalArgumentException(why);
                });
        Path executable = installations.require(harness);
        ResolvedProvider provider = harness.needsProvider() ? providers.resolve(spec.provider(), spec.model())
                : ResolvedProvider.cliLogin(spec.provider(), spec.model() != null ? spec.model()
                        : HarnessRunner.NO_MODEL);
        var baseline = workspaces.inspect(spec.baseline(), spec.ref()); // reads only: bad input writes nothing
        RunContext run = new RunContext(runId, spec, harness, executable, provider, baseline, workspaces.stateDir(),
                Instant.now(), afterHarness, metering && !provider.usesCliLogin());
        for (RunStage s : stages) {
            s.preflight(run); // a stage's refusal: still nothing written
        }
        workspaces.ensureWritableDir(workspaces.stateDir().resolve("runs"));
        workspaces.ensureWritableDir(store.resultsDir());
        HarnessListener both = listener == HarnessListener.NONE ? this.listener : both(this.listener, listener);
        return StageChain.run(stages, run, bailed, services, both,
                autonomyPreamble ? AutonomyPreamble.frame(spec.prompt()) : spec.prompt(), System.nanoTime() - t0,
                followUp);
    }

    /** Bails a run going on (see {@link HarnessRunner#bail}). */
    boolean bail(String runId) {
        return inFlight.bail(runId);
    }

    /** Bails every run going on and stops their processes, as the runner closes. */
    void stopRuns() {
        inFlight.bailAll();
        supervisor.close();
    }

    /** Stops taking cleanup work, as the runner closes: runs still ending delete their checkouts themselves. */
    void shutdownHousekeeping() {
        housekeeping.shutdown();
    }

    private static HarnessListener both(HarnessListener first, HarnessListener second) {
        return event -> {
            try {
                first.onEvent(event);
            } finally {
                second.onEvent(event);
            }
        };
    }
}
