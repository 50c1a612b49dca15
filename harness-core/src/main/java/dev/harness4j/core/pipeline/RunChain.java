package dev.harness4j.core.pipeline;

import dev.harness4j.api.HarnessEvent;

/**
 * One stage's view of the run it is part of: the run's facts, its store, its outcome so far, and
 * {@link #proceed()}, which runs every stage inside this one. Handed to {@link RunStage#run}; valid
 * only during that call, on the run's thread.
 */
public interface RunChain {
    /** Returns the run's fixed facts. */
    RunContext run();

    /** Returns the run's store: what outer stages published, and where this one publishes. */
    RunStore store();

    /** Returns the run's outcome so far (notes and sections may be added before {@link #proceed()}). */
    RunOutcome outcome();

    /**
     * Runs the rest of the chain — every stage inside this one, down to the harness process — and
     * returns the outcome they made. May be called at most once. A stage inside that throws does
     * not throw here: the outcome comes back {@linkplain RunOutcome#aborted() aborted} with an
     * {@code error} result naming the stage; so does a run bailed before its harness started
     * ({@code bailed}). Only a refusal that must leave no result ({@link
     * dev.harness4j.api.NotLoggedInException}) and JVM errors pass through.
     *
     * @return the run's outcome
     * @throws InterruptedException never for the stages' own interruptions (the outcome is then
     *     {@code bailed}, the thread's interrupt flag set again); declared so a stage may let its own
     *     waits throw
     * @throws IllegalStateException when called a second time
     */
    RunOutcome proceed() throws InterruptedException;

    /** Returns whether the run has been bailed (by {@code HarnessRunner.bail} or the runner's close). */
    boolean bailed();

    /** Returns the guard of the run's harness process: activity and stops, from any thread. */
    RunControl control();

    /**
     * Sends a status event to the run's event log and listeners.
     *
     * @param status the run's new status
     * @param detail a short detail, or {@code null}
     */
    void status(HarnessEvent.Status status, String detail);
}
