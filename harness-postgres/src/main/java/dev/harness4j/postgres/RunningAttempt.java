package dev.harness4j.postgres;

/** One attempt a {@link PgWorker} is running: its lease, and whether it still runs or lost the lease. */
final class RunningAttempt {
    final PgLease lease;
    volatile boolean executing = true;
    volatile boolean lost;

    RunningAttempt(PgLease lease) {
        this.lease = lease;
    }
}
