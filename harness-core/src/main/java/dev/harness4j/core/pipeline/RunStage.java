package dev.harness4j.core.pipeline;

/**
 * One concern of a run — the workspace, the meter, the sandbox, the phase report, a user's own —
 * as a stage that wraps the rest of the run, in the manner of OkHttp's interceptors: it may
 * prepare something and publish it in the {@link RunStore}, calls {@link RunChain#proceed()} at
 * most once, then reads and amends the {@link RunOutcome}. Stages are ordered by their {@link
 * #slot()}, outermost first; the runner builds the built-in ones, a user adds more with {@code
 * HarnessRunner.builder().stage(..)} or registers a {@link RunStageFactory} for {@link
 * java.util.ServiceLoader}.
 *
 * <pre>{@code
 * public final class Provenance implements RunStage {
 *     public Slot slot() { return Slot.RECORD; }
 *     public RunOutcome run(RunChain chain) throws InterruptedException {
 *         RunOutcome out = chain.proceed();
 *         out.section("provenance", Map.of("host", hostName()));
 *         return out;
 *     }
 * }
 * }</pre>
 *
 * <p>One stage instance serves every run of its runner, concurrently: it must be thread-safe and
 * keep per-run state in the store, not in fields. A stage that holds resources (a server, a
 * relay) releases them in {@link #close()}, called once when the runner closes.
 */
public interface RunStage extends AutoCloseable {
    /** Returns where the stage sits in the chain. */
    Slot slot();

    /** Returns the stage's name, for timings and messages; default the class's simple name. */
    default String name() {
        return getClass().getSimpleName();
    }

    /**
     * Checks a run before anything of it is written or started: bad input fails fast here (throw
     * a {@link dev.harness4j.api.HarnessException} subclass or {@link IllegalArgumentException}
     * saying what is wrong and how to fix it). The default accepts every run.
     *
     * @param run the run's facts
     */
    default void preflight(RunContext run) {}

    /**
     * Runs this stage around the rest of the run.
     *
     * @param chain the run, the store, and the rest of the chain
     * @return the outcome, usually the one {@link RunChain#proceed()} returned, amended
     * @throws InterruptedException when interrupted while waiting; the run ends {@code bailed}
     */
    RunOutcome run(RunChain chain) throws InterruptedException;

    /** Releases what the stage holds; called once when its runner closes. Default nothing. */
    @Override
    default void close() {}
}
