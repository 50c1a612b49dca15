package dev.harness4j.postgres;

import dev.harness4j.core.queue.QueueEntry;
import dev.harness4j.core.queue.QueueJson;
import dev.harness4j.core.queue.QueueStore;
import dev.harness4j.core.queue.RetryPolicy;
import dev.harness4j.postgres.internal.Jsons;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * harness-core's {@link QueueStore} SPI on the PostgreSQL queue table, so {@code RunQueue},
 * {@code QueueProcessor} and {@code Bench} can keep their queue in the database (one machine, or
 * several that trust core's pid-based recovery). {@link #update} is a {@code SELECT … FOR UPDATE}
 * and an {@code UPDATE} in one transaction: atomic across threads and processes.
 *
 * <pre>{@code
 * RunQueue queue = RunQueue.builder().stateDir(stateDir).store(new PgQueueStore(db)).build();
 * }</pre>
 *
 * <p>Entries written here have no lease; workers on many machines use {@link PgQueue} and
 * {@link PgWorker} instead, whose leases let any machine take over a dead worker's entries.
 */
public final class PgQueueStore implements QueueStore {
    private static final String COLUMNS = "id, spec::text, state, attempts, enqueued_at, owner::text, run_id,"
            + " not_before, last_outcome, reason, updated_at";

    private final PgDatabase db;

    public PgQueueStore(PgDatabase db) {
        this.db = Objects.requireNonNull(db, "db");
    }

    @Override
    public void add(QueueEntry e) {
        Objects.requireNonNull(e, "entry");
        db.withConnection(c -> {
            try (PreparedStatement p = c.prepareStatement("INSERT INTO h4j_queue (id, spec, harness, provider, state,"
                    + " attempts, max_attempts, enqueued_at, owner, run_id, not_before, last_outcome, reason, updated_at)"
                    + " VALUES (?, ?::jsonb, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?, ?)")) {
                p.setString(1, e.id());
                p.setString(2, QueueJson.spec(e.spec()));
                p.setString(3, e.spec().harness());
                p.setString(4, e.spec().provider());
                p.setString(5, e.state().wireName());
                p.setInt(6, e.attempts());
                p.setInt(7, RetryPolicy.DEFAULT.maxAttempts());
                p.setTimestamp(8, Timestamp.from(e.enqueuedAt()));
                p.setString(9, Jsons.owner(e.owner()));
                p.setString(10, e.runId());
                p.setTimestamp(11, ts(e.notBefore()));
                p.setString(12, e.lastOutcome());
                p.setString(13, e.reason());
                p.setTimestamp(14, Timestamp.from(e.updatedAt()));
                return p.executeUpdate();
            }
        }, "add queue entry " + e.id());
    }

    @Override
    public Optional<QueueEntry> get(String id) {
        return db.withConnection(c -> select(c, id, false), "read queue entry " + id);
    }

    @Override
    public List<QueueEntry> list() {
        return query("SELECT " + COLUMNS + " FROM h4j_queue ORDER BY enqueued_at, seq", "list the queue");
    }

    @Override
    public List<QueueEntry> listActive() {
        return query("SELECT " + COLUMNS + " FROM h4j_queue WHERE state IN ('queued', 'running', 'interrupted')"
                + " ORDER BY enqueued_at, seq", "list the active queue entries");
    }

    @Override
    public Optional<QueueEntry> update(String id, UnaryOperator<QueueEntry> change) {
        Objects.requireNonNull(change, "change");
        return db.inTransaction(c -> {
            Optional<QueueEntry> cur = select(c, id, true);
            if (cur.isEmpty()) {
                return Optional.<QueueEntry>empty();
            }
            QueueEntry next = change.apply(cur.get());
            if (next == null || next == cur.get()) {
                return Optional.<QueueEntry>empty();
            }
            if (!next.id().equals(id)) {
                throw new IllegalArgumentException("an update must keep the entry id " + id + ", got " + next.id());
            }
            try (PreparedStatement p = c.prepareStatement("UPDATE h4j_queue SET spec = ?::jsonb, state = ?, attempts = ?,"
                    + " owner = ?::jsonb, run_id = ?, not_before = ?, last_outcome = ?, reason = ?, updated_at = ?"
                    + " WHERE id = ?")) {
                p.setString(1, QueueJson.spec(next.spec()));
                p.setString(2, next.state().wireName());
                p.setInt(3, next.attempts());
                p.setString(4, Jsons.owner(next.owner()));
                p.setString(5, next.runId());
                p.setTimestamp(6, ts(next.notBefore()));
                p.setString(7, next.lastOutcome());
                p.setString(8, next.reason());
                p.setTimestamp(9, Timestamp.from(next.updatedAt()));
                p.setString(10, id);
                p.executeUpdate();
            }
            return Optional.of(next);
        }, "update queue entry " + id);
    }

    @Override
    public boolean remove(String id) {
        return db.withConnection(c -> {
            try (PreparedStatement p = c.prepareStatement("DELETE FROM h4j_queue WHERE id = ?")) {
                p.setString(1, id);
                return p.executeUpdate() == 1;
            }
        }, "remove queue entry " + id);
    }

    private List<QueueEntry> query(String sql, String what) {
        return db.withConnection(c -> {
            List<QueueEntry> out = new ArrayList<>();
            try (PreparedStatement p = c.prepareStatement(sql); ResultSet r = p.executeQuery()) {
                while (r.next()) {
                    out.add(entry(r));
                }
            }
            return out;
        }, what);
    }

    private static Optional<QueueEntry> select(Connection c, String id, boolean lock) throws SQLException {
        try (PreparedStatement p = c.prepareStatement("SELECT " + COLUMNS + " FROM h4j_queue WHERE id = ?"
                + (lock ? " FOR UPDATE" : ""))) {
            p.setString(1, id);
            try (ResultSet r = p.executeQuery()) {
                return r.next() ? Optional.of(entry(r)) : Optional.empty();
            }
        }
    }

    private static QueueEntry entry(ResultSet r) throws SQLException {
        return new QueueEntry(r.getString(1), QueueJson.spec(r.getString(2)), QueueEntry.State.fromWireName(r.getString(3)),
                r.getInt(4), r.getTimestamp(5).toInstant(), Jsons.owner(r.getString(6)), r.getString(7), instant(r, 8),
                r.getString(9), r.getString(10), r.getTimestamp(11).toInstant());
    }

    private static Timestamp ts(Instant i) {
        return i == null ? null : Timestamp.from(i);
    }

    private static Instant instant(ResultSet r, int i) throws SQLException {
        Timestamp t = r.getTimestamp(i);
        return t == null ? null : t.toInstant();
    }
}
