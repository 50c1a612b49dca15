package dev.harness4j.postgres;

import dev.harness4j.api.RunSpec;
import java.time.Instant;
import java.util.Objects;

/**
 * A claimed queue entry: the lease a worker holds while it runs one attempt. The run id is new
 * at every claim and is the fencing token: a result is written only while the entry is still
 * {@code running} under this run id.
 *
 * @param entryId the queue entry's id
 * @param runId this attempt's run id (the fencing token)
 * @param attempt which attempt this is (1 up), crashed ones included
 * @param spec what to run
 * @param bench the bench the entry was planned for, or {@code null}
 * @param worker the worker holding the lease
 * @param startedAt when the claim happened, by the database's clock
 * @param leaseUntil when the lease expires unless renewed, by the database's clock
 */
public record PgLease(String entryId, String runId, int attempt, RunSpec spec, String bench, String worker,
        Instant startedAt, Instant leaseUntil) {
    public PgLease {
        Objects.requireNonNull(entryId, "entryId");
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(worker, "worker");
        Objects.requireNonNull(startedAt, "startedAt");
        Objects.requireNonNull(leaseUntil, "leaseUntil");
    }
}
