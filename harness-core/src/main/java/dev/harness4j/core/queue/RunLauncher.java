package dev.harness4j.core.queue;

import dev.harness4j.api.HarnessListener;
import dev.harness4j.api.RunSpec;
import dev.harness4j.core.AfterHarness;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.RunRecord;
import java.nio.file.Path;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Runs one attempt of a spec: the one seam between what schedules runs (a {@link
 * QueueProcessor}, a PostgreSQL worker, a bench) and the runner. {@link HarnessRunner#run(RunSpec,
 * String, HarnessListener, AfterHarness)} has this shape, so {@link #of(HarnessRunner)} is all most
 * callers need; a test, or a wrapper that prepares something before each run, implements it.
 *
 * <pre>{@code
 * RunLauncher runs = RunLauncher.of(runner);
 * RunLauncher timed = runs.around((spec, runId, listener, after) -> {   // bail still reaches the runner
 *     long t = System.nanoTime();
 *     try {
 *         return runs.run(spec, runId, listener, after);
 *     } finally {
 *         System.out.println(runId + " took " + (System.nanoTime() - t) / 1_000_000 + " ms");
 *     }
 * });
 * }</pre>
 */
@FunctionalInterface
public interface RunLauncher {
    /**
     * Runs {@code spec} as run {@code runId} (the id the queue's recovery and a worker's sweep look
     * for) and returns its record once the result is on disk; should not throw for a run that
     * merely failed.
     *
     * @param listener receives the run's events ({@link HarnessListener#NONE} for none)
     * @param afterHarness the step after the harness process ({@link AfterHarness#NONE} for none)
     */
    RunRecord run(RunSpec spec, String runId, HarnessListener listener, AfterHarness afterHarness) throws Exception;

    /** Bails the run from another thread; false when it is not running (the default bails nothing). */
    default boolean bail(String runId) {
        return false;
    }

    /**
     * The local state dir the runs write into (workspaces under {@code runs/}, results under
     * {@code results/}), or {@code null} when unknown (the default): a PostgreSQL worker keeps its
     * claims there and sweeps a dead worker's runs at start.
     */
    default Path stateDir() {
        return null;
    }

    /** The same runs, with {@code bail} and {@code stateDir} still answered by this launcher. */
    default RunLauncher around(RunLauncher run) {
        Objects.requireNonNull(run, "run");
        return compose(run, this::bail, this::stateDir);
    }

    /** Runs through {@code runner}: its {@code run}, {@code bail} and state dir. */
    static RunLauncher of(HarnessRunner runner) {
        Objects.requireNonNull(runner, "runner");
        return compose(runner::run, runner::bail, runner::stateDir);
    }

    private static RunLauncher compose(RunLauncher run, Predicate<String> bail, Supplier<Path> stateDir) {
        return new RunLauncher() {
            @Override
            public RunRecord run(RunSpec spec, String runId, HarnessListener listener, AfterHarness afterHarness)
                    throws Exception {
                return run.run(spec, runId, listener, afterHarness);
            }

            @Override
            public boolean bail(String runId) {
                return bail.test(runId);
            }

            @Override
            public Path stateDir() {
                return stateDir.get();
            }
        };
    }
}
