package dev.harness4j.postgres.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Objects;

/**
 * The schema's versioned SQL scripts, applied in order inside one transaction that holds a
 * transaction-level advisory lock: workers starting at once migrate one after the other, and
 * the ones after the first find nothing to do.
 */
public final class Migrations {
    /** The advisory lock key every harness4j migration takes ("h4jM" in ASCII). */
    public static final long LOCK_KEY = 0x6834_6a4dL;

    /** One script: its version and the resource it is read from. */
    public record Migration(int version, String description, String resource) {
        public Migration {
            Objects.requireNonNull(description, "description");
            Objects.requireNonNull(resource, "resource");
        }
    }

    /** Every migration, oldest first; the last one's version is the schema this code knows. */
    public static final List<Migration> ALL = List.of(
            new Migration(1, "queue", "migrations/V1__queue.sql"),
            new Migration(2, "results", "migrations/V2__results.sql"),
            new Migration(3, "rewards", "migrations/V3__rewards.sql"));

    /** The schema version this code knows. */
    public static final int LATEST = ALL.get(ALL.size() - 1).version();

    /** What {@link #apply} found and did. */
    public record Result(int before, int after, int newer) {}

    private Migrations() {}

    /**
     * Brings the schema up to {@link #LATEST} on {@code c} (autocommit is turned off and restored).
     *
     * @return the versions before and after; {@code newer} is the found version when it is newer
     *     than {@link #LATEST} (then nothing was applied) and 0 otherwise
     */
    public static Result apply(Connection c) throws SQLException {
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false);
        try {
            try (Statement s = c.createStatement()) {
                s.execute("SELECT pg_advisory_xact_lock(" + LOCK_KEY + ")");
                s.execute("CREATE TABLE IF NOT EXISTS h4j_schema_version (version integer PRIMARY KEY,"
                        + " description text NOT NULL, applied_at timestamptz NOT NULL DEFAULT clock_timestamp())");
            }
            int before = current(c);
            if (before > LATEST) {
                c.rollback();
                return new Result(before, before, before);
            }
            for (Migration m : ALL) {
                if (m.version() <= before) {
                    continue;
                }
                try (Statement s = c.createStatement()) {
                    s.execute(script(m));
                }
                try (PreparedStatement p = c.prepareStatement(
                        "INSERT INTO h4j_schema_version (version, description) VALUES (?, ?)")) {
                    p.setInt(1, m.version());
                    p.setString(2, m.description());
                    p.executeUpdate();
                }
            }
            c.commit();
            return new Result(before, Math.max(before, LATEST), 0);
        } catch (SQLException | RuntimeException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(auto);
        }
    }

    /** The highest applied version, 0 for an empty schema. */
    public static int current(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT coalesce(max(version), 0) FROM h4j_schema_version")) {
            r.next();
            return r.getInt(1);
        }
    }

    static String script(Migration m) {
        try (InputStream in = Migrations.class.getResourceAsStream(m.resource())) {
            if (in == null) {
                throw new IllegalStateException("migration " + m.resource() + " is missing from the harness-postgres jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read migration " + m.resource() + ": " + e, e);
        }
    }
}
