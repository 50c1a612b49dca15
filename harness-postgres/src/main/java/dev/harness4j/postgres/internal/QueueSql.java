package dev.harness4j.postgres.internal;

/** The queue's longer statements, kept apart from {@code PgQueue}'s transaction code. */
public final class QueueSql {
    private QueueSql() {}

    /**
     * The oldest due entry that fits, locked ({@code FOR UPDATE SKIP LOCKED}): returns id,
     * harness, provider, and the caps of its harness and provider (null when uncapped). The full
     * caps and the paused providers are computed once per claim (a few rows), not once per
     * candidate entry. Caps are judged here without their locks; a capped candidate is judged again
     * under its caps' locks ({@link #RUNNING_OF}).
     */
    public static final String CANDIDATE = "WITH full_caps AS MATERIALIZED (SELECT k.kind, k.name FROM h4j_cap k"
            + " WHERE k.cap <= CASE WHEN k.kind = 'harness'"
            + " THEN (SELECT count(*) FROM h4j_queue r WHERE r.state = 'running' AND r.harness = k.name)"
            + " ELSE (SELECT count(*) FROM h4j_queue r WHERE r.state = 'running' AND r.provider = k.name) END),"
            + " paused AS MATERIALIZED (SELECT provider FROM h4j_provider_pause WHERE until > clock_timestamp())"
            + " SELECT q.id, q.harness, q.provider,"
            + " (SELECT cap FROM h4j_cap WHERE kind = 'harness' AND name = q.harness),"
            + " (SELECT cap FROM h4j_cap WHERE kind = 'provider' AND name = q.provider) FROM h4j_queue q"
            + " WHERE q.state = 'queued' AND (q.not_before IS NULL OR q.not_before <= clock_timestamp())"
            + " AND q.provider NOT IN (SELECT provider FROM paused)"
            + " AND q.harness NOT IN (SELECT name FROM full_caps WHERE kind = 'harness')"
            + " AND q.provider NOT IN (SELECT name FROM full_caps WHERE kind = 'provider')"
            + " ORDER BY q.seq LIMIT 1 FOR UPDATE OF q SKIP LOCKED";

    /** How many entries of a harness (parameter 1) or a provider (parameter 2) are running. */
    public static final String RUNNING_OF = "SELECT count(*) FILTER (WHERE harness = ?), count(*) FILTER"
            + " (WHERE provider = ?) FROM h4j_queue WHERE state = 'running'";

    /**
     * Turns the locked candidate (parameter 5: its id) into a lease: parameters run id, worker,
     * owner json, lease ms; returns id, spec, attempts, bench, harness, provider, started_at,
     * lease_until.
     */
    public static final String CLAIM = "UPDATE h4j_queue u SET state = 'running', attempts = u.attempts + 1,"
            + " run_id = ?, worker = ?, owner = ?::jsonb, lease_until = clock_timestamp() + ? * interval '1 millisecond',"
            + " started_at = clock_timestamp(), not_before = NULL, reason = NULL, updated_at = clock_timestamp()"
            + " WHERE u.id = ?"
            + " RETURNING u.id, u.spec::text, u.attempts, u.bench, u.harness, u.provider, u.started_at, u.lease_until";

    /**
     * Takes over every expired lease: queued again, or failed with no attempts left; the attempt
     * row ends as {@code lease-expired}. Returns id and new state.
     */
    public static final String REAP = "WITH expired AS (SELECT id FROM h4j_queue WHERE state = 'running'"
            + " AND lease_until < clock_timestamp() FOR UPDATE SKIP LOCKED),"
            + " upd AS (UPDATE h4j_queue q SET state = CASE WHEN q.attempts >= q.max_attempts THEN 'failed'"
            + " ELSE 'queued' END, last_outcome = 'crashed', reason = 'the lease of worker ' || q.worker"
            + " || ' expired during attempt ' || q.attempts || CASE WHEN q.attempts >= q.max_attempts"
            + " THEN '; no attempts left' ELSE '; queued again' END, worker = NULL, owner = NULL, lease_until = NULL,"
            + " updated_at = clock_timestamp() FROM expired e WHERE q.id = e.id RETURNING q.id, q.state, q.run_id),"
            + " att AS (UPDATE h4j_attempt a SET ended_at = clock_timestamp(), outcome = 'lease-expired'"
            + " FROM upd WHERE a.run_id = upd.run_id AND a.ended_at IS NULL)"
            + " SELECT id, state FROM upd";
}
