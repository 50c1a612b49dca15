/**
 * The run queue and the result store on PostgreSQL, for many workers on many machines:
 * {@link dev.harness4j.postgres.PgDatabase} (connections and schema migrations), {@link
 * dev.harness4j.postgres.PgQueue} (leases with a heartbeat, fencing, caps and rate-limit pauses
 * shared by every worker), {@link dev.harness4j.postgres.PgWorker} (claims, runs and records),
 * {@link dev.harness4j.postgres.PgResults} (meta.json as jsonb, capped artifacts, summaries from
 * the database alone). Implementation lives in {@code dev.harness4j.postgres.internal}.
 */
package dev.harness4j.postgres;
