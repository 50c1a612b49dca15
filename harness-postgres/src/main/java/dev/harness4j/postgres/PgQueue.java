package dev.harness4j.postgres;

import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.RunSpec;
import dev.harness4j.core.queue.Owner;
import dev.harness4j.core.queue.QueueJson;
import dev.harness4j.core.queue.RetryPolicy;
import dev.harness4j.postgres.internal.Jsons;
import dev.harness4j.postgres.internal.NextState;
import dev.harness4j.postgres.internal.QueueSql;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The run queue shared by every worker through one PostgreSQL database. A claim is {@code
 * SELECT … FOR UPDATE SKIP LOCKED} of the oldest due entry that fits the caps, turned into a
 * lease ({@link PgLease}) the worker renews with {@link #renew}; an entry whose lease expired
 * (its worker died, froze or lost the network) is queued again by {@link #reapExpired()} with
 * its attempt counted; {@link #finish} writes how an attempt ended (and its result) only while
 * the lease is still the worker's, in one transaction.
 *
 * <pre>{@code
 * PgQueue queue = new PgQueue(db);
 * queue.enqueue("bench-1", specs, RetryPolicy.DEFAULT);
 * queue.cap(PgQueue.CapKind.HARNESS, "claude-code", 2);     // at most 2 at once, over all workers
 * Optional<PgLease> lease = queue.claim("worker-a", Duration.ofMinutes(2));
 * }</pre>
 *
 * <p>Caps hold across workers: a claim whose entry's harness or provider is capped takes a
 * transaction-level advisory lock per cap (one key per harness or provider cap, taken in
 * ascending key order, so two claims never wait on each other in a cycle), counts the running
 * entries again under them and claims, all in one transaction. Claims of one capped harness
 * serialize; claims of other harnesses and providers run in parallel. Rate limits pause a
 * provider for every worker ({@link #pauseProvider}).
 */
public final class PgQueue {
    /** How many candidates a claim tries when the one it found is capped full by a concurrent claim. */
    private static final int CLAIM_TRIES = 3;
    /** The outcome written for an attempt whose lease expired. */
    public static final String LEASE_EXPIRED = "lease-expired";

    private static final DateTimeFormatter ID_TIME =
            DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss").withZone(ZoneOffset.UTC);

    private final PgDatabase db;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();
    private final String owner = Jsons.owner(Owner.current());

    /** What a cap limits. */
    public enum CapKind {
        HARNESS, PROVIDER;

        String column() {
            return this == HARNESS ? "harness" : "provider";
        }
    }

    /** How {@link #finish} went. */
    public enum Finish {
        /** Written: the result and the entry's new state, in one transaction. */
        RECORDED,
        /** This attempt had been written before (a retried write whose first commit went through). */
        ALREADY_RECORDED,
        /** The lease was taken over (expired and re-queued, or claimed again): nothing was written. */
        LEASE_LOST
    }

    /** The entries by state. */
    public record Counts(int queued, int running, int done, int failed, int interrupted) {
        /** Entries that will still run: queued, running, interrupted. */
        public int active() {
            return queued + running + interrupted;
        }
    }

    public PgQueue(PgDatabase db) {
        this(db, Clock.systemUTC());
    }

    PgQueue(PgDatabase db, Clock clock) {
        this.db = Objects.requireNonNull(db, "db");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    public PgDatabase database() {
        return db;
    }

    /**
     * Queues specs in order for a bench ({@code null}: none). Within a bench, a spec already
     * queued (by this or another machine planning the same bench) is not queued twice.
     *
     * @return the ids of the entries added (specs already queued left out)
     */
    public List<String> enqueue(String bench, List<RunSpec> specs, RetryPolicy retry) {
        Objects.requireNonNull(specs, "specs");
        Objects.requireNonNull(retry, "retry");
        return db.inTransaction(c -> {
            List<String> ids = new ArrayList<>();
            try (PreparedStatement p = c.prepareStatement("INSERT INTO h4j_queue (id, bench, plan_key, spec, harness,"
                    + " provider, state, max_attempts) VALUES (?, ?, ?, ?::jsonb, ?, ?, 'queued', ?)"
                    + " ON CONFLICT DO NOTHING")) {
                for (RunSpec spec : specs) {
                    String id = newId("q");
                    String json = QueueJson.spec(Objects.requireNonNull(spec, "spec"));
                    p.setString(1, id);
                    p.setString(2, bench);
                    p.setString(3, bench == null ? null : sha256(json));
                    p.setString(4, json);
                    p.setString(5, spec.harness());
                    p.setString(6, spec.provider());
                    p.setInt(7, retry.maxAttempts());
                    if (p.executeUpdate() == 1) {
                        ids.add(id);
                    }
                }
            }
            return ids;
        }, "queue " + specs.size() + " runs");
    }

    /** Sets (or replaces) a cap over every worker: at most {@code cap} running entries of this harness or provider. */
    public void cap(CapKind kind, String name, int cap) {
        if (cap < 1) {
            throw new IllegalArgumentException("cap must be >= 1, was " + cap);
        }
        db.withConnection(c -> {
            try (PreparedStatement p = c.prepareStatement("INSERT INTO h4j_cap (kind, name, cap) VALUES (?, ?, ?)"
                    + " ON CONFLICT (kind, name) DO UPDATE SET cap = excluded.cap")) {
                p.setString(1, kind.column());
                p.setString(2, Objects.requireNonNull(name, "name"));
                p.setInt(3, cap);
                return p.executeUpdate();
            }
        }, "set the " + kind.column() + " cap of " + name);
    }

    /** Removes a cap; false when there was none. */
    public boolean uncap(CapKind kind, String name) {
        return db.withConnection(c -> {
            try (PreparedStatement p = c.prepareStatement("DELETE FROM h4j_cap WHERE kind = ? AND name = ?")) {
                p.setString(1, kind.column());
                p.setString(2, name);
                return p.executeUpdate() == 1;
            }
        }, "remove the " + kind.column() + " cap of " + name);
    }

    /**
     * Claims the oldest due entry whose provider is not paused and whose harness and provider are
     * under their caps: a lease for {@code worker} that lasts {@code lease} unless renewed.
     *
     * @return the lease, or empty when nothing fits now
     */
    public Optional<PgLease> claim(String worker, Duration lease) {
        Objects.requireNonNull(worker, "worker");
        long leaseMs = positiveMillis(lease, "lease");
        String runId = newId("r");
        for (int i = 0; i < CLAIM_TRIES; i++) {
            Optional<Optional<PgLease>> got = db.inTransaction(c -> ClaimTransaction.tryClaim(c, runId, worker, owner, leaseMs),
                    "claim a queue entry");
            if (got.isPresent()) {
                return got.get();
            }
        }
        return Optional.empty(); // capped full by concurrent claims each time: the next poll tries again
    }


    /**
     * Renews the leases of {@code worker}'s running attempts for another {@code lease}.
     *
     * @return the run ids still held; a run id missing from it lost its lease (the worker should
     *     stop that run: its result will not be written)
     */
    public Set<String> renew(String worker, Collection<String> runIds, Duration lease) {
        long leaseMs = positiveMillis(lease, "lease");
        if (runIds.isEmpty()) {
            return Set.of();
        }
        return db.withConnection(c -> {
            Set<String> held = new HashSet<>();
            Array ids = c.createArrayOf("text", runIds.toArray());
            try (PreparedStatement p = c.prepareStatement("UPDATE h4j_queue SET lease_until = clock_timestamp()"
                    + " + ? * interval '1 millisecond' WHERE state = 'running' AND worker = ? AND run_id = ANY (?)"
                    + " RETURNING run_id")) {
                p.setLong(1, leaseMs);
                p.setString(2, worker);
                p.setArray(3, ids);
                try (ResultSet r = p.executeQuery()) {
                    while (r.next()) {
                        held.add(r.getString(1));
                    }
                }
            }
            return held;
        }, "renew the leases of worker " + worker);
    }

    /**
     * Queues again every entry whose lease expired (attempt counted; {@code failed} when it has no
     * attempts left) and every {@code interrupted} one. Any worker may call it; each expired entry
     * is taken over once.
     *
     * @return the ids of the entries taken over, with their new state
     */
    public Map<String, String> reapExpired() {
        return db.inTransaction(c -> {
            Map<String, String> out = new LinkedHashMap<>();
            try (PreparedStatement p = c.prepareStatement(QueueSql.REAP); ResultSet r = p.executeQuery()) {
                while (r.next()) {
                    out.put(r.getString(1), r.getString(2));
                }
            }
            try (PreparedStatement p = c.prepareStatement("UPDATE h4j_queue SET state = 'queued', reason ="
                    + " 'interrupted; queued again', updated_at = clock_timestamp() WHERE id IN (SELECT id FROM h4j_queue"
                    + " WHERE state = 'interrupted' FOR UPDATE SKIP LOCKED) RETURNING id"); ResultSet r = p.executeQuery()) {
                while (r.next()) {
                    out.put(r.getString(1), "queued");
                }
            }
            return out;
        }, "re-queue expired leases");
    }

    /**
     * Ends the lease of an attempt known to be dead (its worker was killed on this machine and a
     * worker starting there found its claim), so that {@link #reapExpired()} takes the entry over
     * now instead of when the lease runs out. Does nothing when the entry is no longer running
     * under this run id (already taken over or finished).
     *
     * @return whether the lease was ended
     */
    public boolean expireLease(String runId) {
        Objects.requireNonNull(runId, "runId");
        return db.withConnection(c -> {
            try (PreparedStatement p = c.prepareStatement("UPDATE h4j_queue SET lease_until = clock_timestamp()"
                    + " - interval '1 millisecond' WHERE state = 'running' AND run_id = ?")) {
                p.setString(1, runId);
                return p.executeUpdate() == 1;
            }
        }, "end the lease of dead run " + runId);
    }


    /**
     * Writes how an attempt ended, in one transaction that first checks the lease: {@code done}
     * for a success, queued again when {@code retry} retries the outcome (backoff measured by the
     * database's clock), else {@code failed}; a rate limit pauses the provider for every worker.
     * The result (when given) is written in the same transaction, so a worker that lost its lease
     * writes neither.
     */
    public Finish finish(PgLease lease, HarnessResult result, RetryPolicy retry, PgResults.Upload upload) {
        Objects.requireNonNull(lease, "lease");
        Objects.requireNonNull(result, "result");
        Objects.requireNonNull(retry, "retry");
        return db.inTransaction(c -> {
            int attempts;
            int maxAttempts;
            try (PreparedStatement p = c.prepareStatement("SELECT state, run_id, attempts, max_attempts"
                    + " FROM h4j_queue WHERE id = ? FOR UPDATE")) {
                p.setString(1, lease.entryId());
                try (ResultSet r = p.executeQuery()) {
                    if (!r.next() || !"running".equals(r.getString(1)) || !lease.runId().equals(r.getString(2))) {
                        return alreadyRecorded(c, lease.runId()) ? Finish.ALREADY_RECORDED : Finish.LEASE_LOST;
                    }
                    attempts = r.getInt(3);
                    maxAttempts = r.getInt(4);
                }
            }
            Outcome outcome = result.outcome();
            String wire = outcome.wireName();
            Instant now = clock.instant();
            NextState next = NextState.after(result, retry, attempts, maxAttempts, now);
            if (upload != null) {
                PgResults.insert(c, lease, upload);
            }
            try (PreparedStatement p = c.prepareStatement("UPDATE h4j_queue SET state = ?, last_outcome = ?,"
                    + " reason = ?, not_before = CASE WHEN ?::bigint IS NULL THEN NULL ELSE clock_timestamp()"
                    + " + ?::bigint * interval '1 millisecond' END, worker = NULL, owner = NULL, lease_until = NULL,"
                    + " updated_at = clock_timestamp() WHERE id = ?")) {
                p.setString(1, next.state());
                p.setString(2, wire);
                p.setString(3, next.reason());
                p.setObject(4, next.delayMs(), java.sql.Types.BIGINT);
                p.setObject(5, next.delayMs(), java.sql.Types.BIGINT);
                p.setString(6, lease.entryId());
                p.executeUpdate();
            }
            try (PreparedStatement p = c.prepareStatement("UPDATE h4j_attempt SET ended_at = clock_timestamp(),"
                    + " outcome = ? WHERE run_id = ?")) {
                p.setString(1, wire);
                p.setString(2, lease.runId());
                p.executeUpdate();
            }
            if (outcome == Outcome.RATE_LIMITED) {
                Instant until = result.retryAt() != null && result.retryAt().isAfter(now) ? result.retryAt()
                        : now.plus(retry.rateLimitWait());
                pauseProvider(c, lease.spec().provider(), until, result.reason());
            }
            return Finish.RECORDED;
        }, "record how run " + lease.runId() + " of queue entry " + lease.entryId() + " ended");
    }

    private static boolean alreadyRecorded(Connection c, String runId) throws SQLException {
        try (PreparedStatement p = c.prepareStatement(
                "SELECT 1 FROM h4j_attempt WHERE run_id = ? AND ended_at IS NOT NULL AND outcome <> ?")) {
            p.setString(1, runId);
            p.setString(2, LEASE_EXPIRED);
            try (ResultSet r = p.executeQuery()) {
                return r.next();
            }
        }
    }

    /** Pauses a provider for every worker until {@code until} (a later pause already set wins). */
    public void pauseProvider(String provider, Instant until, String reason) {
        db.withConnection(c -> {
            pauseProvider(c, provider, until, reason);
            return null;
        }, "pause provider " + provider);
    }

    private static void pauseProvider(Connection c, String provider, Instant until, String reason) throws SQLException {
        try (PreparedStatement p = c.prepareStatement("INSERT INTO h4j_provider_pause (provider, until, reason)"
                + " VALUES (?, ?, ?) ON CONFLICT (provider) DO UPDATE SET until = greatest(h4j_provider_pause.until,"
                + " excluded.until), reason = excluded.reason")) {
            p.setString(1, provider);
            p.setTimestamp(2, Timestamp.from(until));
            p.setString(3, reason);
            p.executeUpdate();
        }
    }

    /** Until when a provider is paused for every worker, if it is. */
    public Optional<Instant> pausedUntil(String provider) {
        return db.withConnection(c -> {
            try (PreparedStatement p = c.prepareStatement(
                    "SELECT until FROM h4j_provider_pause WHERE provider = ? AND until > clock_timestamp()")) {
                p.setString(1, provider);
                try (ResultSet r = p.executeQuery()) {
                    return r.next() ? Optional.of(r.getTimestamp(1).toInstant()) : Optional.<Instant>empty();
                }
            }
        }, "read the pause of provider " + provider);
    }

    /** The entries by state, of one bench or ({@code null}) of all. */
    public Counts counts(String bench) {
        return db.withConnection(c -> {
            Map<String, Integer> n = new LinkedHashMap<>();
            try (PreparedStatement p = c.prepareStatement("SELECT state, count(*) FROM h4j_queue"
                    + " WHERE ?::text IS NULL OR bench = ? GROUP BY state")) {
                p.setString(1, bench);
                p.setString(2, bench);
                try (ResultSet r = p.executeQuery()) {
                    while (r.next()) {
                        n.put(r.getString(1), r.getInt(2));
                    }
                }
            }
            return new Counts(n.getOrDefault("queued", 0), n.getOrDefault("running", 0), n.getOrDefault("done", 0),
                    n.getOrDefault("failed", 0), n.getOrDefault("interrupted", 0));
        }, "count the queue entries");
    }

    private String newId(String prefix) {
        byte[] b = new byte[6];
        random.nextBytes(b);
        return prefix + "-" + ID_TIME.format(clock.instant()) + "-" + HexFormat.of().formatHex(b);
    }

    private static long positiveMillis(Duration d, String name) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be > 0, was " + d);
        }
        return d.toMillis();
    }

    private static String sha256(String s) {
        return HexFormat.of().formatHex(sha256Bytes(s));
    }

    static byte[] sha256Bytes(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
    }
}
