package dev.harness4j.postgres;

import dev.harness4j.core.queue.QueueJson;
import dev.harness4j.postgres.internal.QueueSql;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import java.util.TreeSet;

/**
 * One claim of {@link PgQueue#claim}: the oldest due entry that fits, taken {@code FOR UPDATE
 * SKIP LOCKED}; when its harness or provider is capped, the advisory lock of each of its caps
 * (one key per cap, ascending: two claims never wait on each other in a cycle) and the count of
 * running entries again under them; then the lease and the attempt row. Claims of different caps
 * and uncapped claims do not wait on each other.
 */
final class ClaimTransaction {
    private ClaimTransaction() {}

    /**
     * One claim transaction: the oldest candidate that fits, then, when capped, its caps' locks and
     * the count again. Empty outer optional: the candidate's cap filled up meanwhile (try again).
     */
    static Optional<Optional<PgLease>> tryClaim(Connection c, String runId, String worker, String owner, long leaseMs)
            throws SQLException {
        String id;
        try (PreparedStatement p = c.prepareStatement(QueueSql.CANDIDATE); ResultSet r = p.executeQuery()) {
            if (!r.next()) {
                return Optional.of(Optional.empty());
            }
            id = r.getString(1);
            String harness = r.getString(2);
            String provider = r.getString(3);
            int harnessCap = r.getInt(4);
            boolean harnessCapped = !r.wasNull();
            int providerCap = r.getInt(5);
            boolean providerCapped = !r.wasNull();
            if ((harnessCapped || providerCapped) && !underCapsLocked(c, harness, harnessCapped ? harnessCap : -1,
                    provider, providerCapped ? providerCap : -1)) {
                c.rollback(); // releases the candidate's row and the locks
                return Optional.empty();
            }
        }
        PgLease out;
        try (PreparedStatement p = c.prepareStatement(QueueSql.CLAIM)) {
            p.setString(1, runId);
            p.setString(2, worker);
            p.setString(3, owner);
            p.setLong(4, leaseMs);
            p.setString(5, id);
            try (ResultSet r = p.executeQuery()) {
                r.next();
                out = new PgLease(r.getString(1), runId, r.getInt(3), QueueJson.spec(r.getString(2)),
                        r.getString(4), worker, r.getTimestamp(7).toInstant(), r.getTimestamp(8).toInstant());
                try (PreparedStatement a = c.prepareStatement("INSERT INTO h4j_attempt (run_id, entry_id, attempt,"
                        + " worker, harness, provider, started_at) VALUES (?, ?, ?, ?, ?, ?, ?)")) {
                    a.setString(1, runId);
                    a.setString(2, out.entryId());
                    a.setInt(3, out.attempt());
                    a.setString(4, worker);
                    a.setString(5, r.getString(5));
                    a.setString(6, r.getString(6));
                    a.setTimestamp(7, r.getTimestamp(7));
                    a.executeUpdate();
                }
            }
        }
        return Optional.of(Optional.of(out));
    }

    /**
     * Takes the advisory locks of the candidate's caps (ascending key order: deadlock-free), then
     * counts its harness's and provider's running entries again: under the locks, every claim of
     * the same cap committed before ours is seen. {@code -1}: no cap.
     */
    private static boolean underCapsLocked(Connection c, String harness, int harnessCap, String provider, int providerCap)
            throws SQLException {
        TreeSet<Long> keys = new TreeSet<>();
        if (harnessCap >= 0) {
            keys.add(capLockKey(PgQueue.CapKind.HARNESS, harness));
        }
        if (providerCap >= 0) {
            keys.add(capLockKey(PgQueue.CapKind.PROVIDER, provider));
        }
        try (PreparedStatement lock = c.prepareStatement("SELECT pg_advisory_xact_lock(?)")) {
            for (long k : keys) {
                lock.setLong(1, k);
                lock.executeQuery().close();
            }
        }
        try (PreparedStatement p = c.prepareStatement(QueueSql.RUNNING_OF)) {
            p.setString(1, harness);
            p.setString(2, provider);
            try (ResultSet r = p.executeQuery()) {
                r.next();
                return (harnessCap < 0 || r.getLong(1) < harnessCap) && (providerCap < 0 || r.getLong(2) < providerCap);
            }
        }
    }

    /** The advisory lock key of one cap: the first 8 bytes of the SHA-256 of {@code h4j-cap/<kind>/<name>}. */
    static long capLockKey(PgQueue.CapKind kind, String name) {
        byte[] h = PgQueue.sha256Bytes("h4j-cap/" + kind.column() + "/" + name);
        return ByteBuffer.wrap(h, 0, 8).getLong();
    }
}
