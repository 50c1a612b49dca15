package dev.harness4j.core.process;

import java.util.concurrent.CountDownLatch;

/** The state of one running run that {@link ProcessSupervisor#bail} and {@link ProcessSupervisor#close} share with its {@link Supervision}. */
final class ActiveRun {
    final RunGuard guard;
    final CountDownLatch finished = new CountDownLatch(1);
    /** The request's marker scope, or null. */
    final String scope;
    volatile long pid = -1;
    /** Set by the run's own thread only. */
    boolean interrupted;

    ActiveRun(RunGuard guard, String scope) {
        this.guard = guard;
        this.scope = scope;
    }
}
