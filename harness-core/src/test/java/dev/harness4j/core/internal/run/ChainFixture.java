package dev.harness4j.core.internal.run;

import dev.harness4j.api.HarnessListener;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.RunSpec;
import dev.harness4j.core.AfterHarness;
import dev.harness4j.core.GitFixture;
import dev.harness4j.core.Installations;
import dev.harness4j.core.ShellHarness;
import dev.harness4j.core.internal.capture.ResultStore;
import dev.harness4j.core.internal.workspace.ChangeCollector;
import dev.harness4j.core.internal.workspace.Workspaces;
import dev.harness4j.core.pipeline.RunChain;
import dev.harness4j.core.pipeline.RunContext;
import dev.harness4j.core.pipeline.RunKeys;
import dev.harness4j.core.pipeline.RunOutcome;
import dev.harness4j.core.pipeline.RunSecrets;
import dev.harness4j.core.pipeline.RunStage;
import dev.harness4j.core.pipeline.RunStore;
import dev.harness4j.core.pipeline.Slot;
import dev.harness4j.core.process.ProcessSupervisor;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * Runs a few stages against a terminal fake, without a runner: real git repository, real
 * workspaces and supervisor, the store set up the way the runner sets it up. For stage unit tests.
 */
public final class ChainFixture implements AutoCloseable {
    private final Path repo;
    private final Workspaces workspaces;
    private final ProcessSupervisor supervisor = ProcessSupervisor.builder().build();
    private final ExecutorService housekeeping = Executors.newCachedThreadPool();
    private final RunnerServices services;
    private int runs;
    private ResolvedProvider provider;

    private static final Map<String, String> ENV = Map.of("PATH", System.getenv("PATH"));

    public ChainFixture(Path tmp) {
        this.repo = GitFixture.repo(tmp.resolve("repo"));
        this.workspaces = Workspaces.builder().stateDir(tmp.resolve("state")).build();
        workspaces.ensureWritableDir(workspaces.stateDir().resolve("runs"));
        this.services = new RunnerServices(workspaces, new ChangeCollector(workspaces),
                new ResultStore(workspaces.stateDir()), supervisor, Installations.defaults(), ENV,
                dev.harness4j.core.process.RunEnvironment.of(ENV), false, housekeeping, List.of(), List.of(ShellHarness.provider()),
                (p, m) -> ShellHarness.provider().resolve(p, m).orElseThrow(), id -> { });
    }

    /** Makes later runs resolve to this provider (default the shell harness's {@code local}). */
    public ChainFixture provider(ResolvedProvider value) {
        this.provider = value;
        return this;
    }

    /** The repository runs start from. */
    public Path repo() {
        return repo;
    }

    /** What one run of the chain left: its outcome and store. */
    public record Ran(RunOutcome outcome, RunStore store, StageChain chain) {}

    /** A terminal that sets a completed result (and records the store it saw). */
    public static RunStage terminal(Function<RunChain, HarnessResult> result) {
        return new RunStage() {
            @Override
            public Slot slot() {
                return Slot.HARNESS;
            }

            @Override
            public RunOutcome run(RunChain chain) {
                return chain.outcome().result(result.apply(chain));
            }
        };
    }

    /** A terminal whose run completes with nothing more. */
    public static RunStage completes() {
        return terminal(c -> HarnessResult.builder(Outcome.COMPLETED, c.run().model()).build());
    }

    /** Runs the stages (outermost first, terminal last) on a spec of the shell test harness. */
    public Ran run(RunSpec.Builder spec, List<RunStage> stages) throws InterruptedException {
        return run(spec.baseline(repo).build(), stages, new AtomicBoolean());
    }

    /** Runs the stages with the given bail flag. */
    public Ran run(RunSpec spec, List<RunStage> stages, AtomicBoolean bailed) throws InterruptedException {
        ResolvedProvider provider = this.provider != null ? this.provider
                : ShellHarness.provider().resolve(spec.provider(), spec.model()).orElseThrow();
        String runId = "chain-" + (++runs) + "-" + System.nanoTime();
        RunContext ctx = new RunContext(runId, spec, new ShellHarness(), Path.of("/bin/sh"), provider,
                workspaces.inspect(spec.baseline(), spec.ref()), workspaces.stateDir(), Instant.now(), AfterHarness.NONE,
                stages.stream().anyMatch(s -> s.slot() == Slot.METER));
        stages.forEach(s -> s.preflight(ctx));
        StageChain chain = new StageChain(stages, ctx, bailed, StageChain.control(supervisor, runId));
        RunStore store = chain.store();
        store.put(CoreKeys.SERVICES, services);
        store.put(CoreKeys.LISTENER, HarnessListener.NONE);
        store.put(CoreKeys.CLEANUP, new ArrayList<>());
        store.put(RunKeys.SECRETS, new RunSecrets(v -> { }));
        store.put(RunKeys.PROMPT, spec.prompt());
        store.put(RunKeys.PROVIDER, provider.withModel(ctx.model()));
        RunOutcome out = chain.start();
        List<AutoCloseable> cleanup = store.require(CoreKeys.CLEANUP);
        for (int i = cleanup.size() - 1; i >= 0; i--) {
            try {
                cleanup.get(i).close();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
        return new Ran(out, store, chain);
    }

    /** A spec of the shell test harness. */
    public static RunSpec.Builder spec() {
        return RunSpec.builder(ShellHarness.ID, "local").model("m").prompt("do it");
    }

    @Override
    public void close() {
        supervisor.close();
        housekeeping.shutdownNow();
    }
}
