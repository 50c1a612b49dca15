package dev.harness4j.postgres;

import dev.harness4j.postgres.internal.JdbcUrls;
import dev.harness4j.postgres.internal.Migrations;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;

/**
 * One PostgreSQL database holding harness4j's queue and results: its connection settings, a
 * small pool of connections, and the schema migrations. Thread-safe; close it to close the
 * pooled connections.
 *
 * <pre>{@code
 * try (PgDatabase db = PgDatabase.builder("jdbc:postgresql://db.internal:5432/bench")
 *         .user("harness4j").passwordFromEnvironment(System.getenv()).build()) {
 *     db.migrate();      // creates or upgrades the schema; refuses a newer one
 *     PgQueue queue = new PgQueue(db);
 * }
 * }</pre>
 *
 * <p>The password never appears in the URL this class prints: {@link #url()} is the URL without
 * credentials, and a URL that carries a password is refused ({@link Builder#build()}) so it
 * cannot reach a command line or a log.
 */
public final class PgDatabase implements AutoCloseable {
    /** Connect timeout when none is set: 10 s. */
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);
    /** Idle connections kept for reuse: 8. */
    public static final int DEFAULT_POOL_SIZE = 8;
    /** Environment variables read for the password, in this order. */
    public static final String ENV_PASSWORD = "HARNESS4J_DB_PASSWORD";
    /** libpq's own variable, read after {@link #ENV_PASSWORD}. */
    public static final String ENV_PGPASSWORD = "PGPASSWORD";

    private final String url;
    private final String user;
    private final char[] password;
    private final Duration connectTimeout;
    private final String applicationName;
    private final int poolSize;
    private final Deque<Connection> idle = new ArrayDeque<>();
    private boolean closed;

    private PgDatabase(Builder b) {
        this.url = b.url;
        this.user = b.user;
        this.password = b.password;
        this.connectTimeout = b.connectTimeout;
        this.applicationName = b.applicationName;
        this.poolSize = b.poolSize;
    }

    public static Builder builder(String jdbcUrl) {
        return new Builder(jdbcUrl);
    }

    /** The JDBC URL without credentials (safe to print). */
    public String url() {
        return JdbcUrls.redact(url);
    }

    /** The login user, or {@code null} for the driver's default. */
    public String user() {
        return user;
    }

    /**
     * Creates or upgrades the schema to the version this harness4j knows, safely when several
     * workers start at once.
     *
     * @return the schema version now in place
     * @throws SchemaTooNewException when the database holds a newer schema (nothing is changed)
     * @throws DatabaseUnavailableException when the database cannot be reached
     */
    public int migrate() {
        Migrations.Result r = withConnection(c -> Migrations.apply(c), "migrate the schema");
        if (r.newer() > 0) {
            throw new SchemaTooNewException("the database " + url() + " holds harness4j schema version " + r.newer()
                    + ", newer than the " + Migrations.LATEST + " this harness4j knows: a newer harness4j has"
                    + " migrated it. Upgrade harness4j on this machine; nothing was started", r.newer(),
                    Migrations.LATEST);
        }
        return r.after();
    }

    /** The schema version the database holds now (0 for none). */
    public int schemaVersion() {
        return withConnection(c -> {
            try (var s = c.createStatement(); var rs = s.executeQuery(
                    "SELECT to_regclass('h4j_schema_version') IS NOT NULL")) {
                rs.next();
                return rs.getBoolean(1) ? Migrations.current(c) : 0;
            }
        }, "read the schema version");
    }

    /** The newest schema version this harness4j knows. */
    public static int knownSchemaVersion() {
        return Migrations.LATEST;
    }

    /** Work on one connection; an {@link SQLException} escapes as it is. */
    @FunctionalInterface
    interface SqlWork<T> {
        T run(Connection c) throws SQLException;
    }

    /**
     * Runs {@code work} on a pooled connection in autocommit mode (the work may open its own
     * transaction and must end it); a connection that failed is closed, never reused.
     *
     * @throws DatabaseUnavailableException on a connection failure; a {@link PgException} for
     *     any other SQL failure, naming {@code what}
     */
    <T> T withConnection(SqlWork<T> work, String what) {
        Connection c = borrow();
        boolean ok = false;
        try {
            T out = work.run(c);
            ok = true;
            return out;
        } catch (SQLException e) {
            throw translate(e, what);
        } finally {
            release(c, ok);
        }
    }

    /** Runs {@code work} in one transaction (committed when it returns, rolled back when it throws). */
    <T> T inTransaction(SqlWork<T> work, String what) {
        return withConnection(c -> {
            c.setAutoCommit(false);
            try {
                T out = work.run(c);
                c.commit();
                return out;
            } catch (SQLException | RuntimeException e) {
                try {
                    c.rollback();
                } catch (SQLException suppressed) {
                    e.addSuppressed(suppressed);
                }
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
        }, what);
    }

    RuntimeException translate(SQLException e, String what) {
        String state = e.getSQLState();
        String message = e.getMessage() == null ? e.toString() : e.getMessage().replaceAll("[.\\s]+$", "");
        if (state != null && (state.startsWith("08") || state.startsWith("28") || state.equals("57P01")
                || state.equals("57P03") || state.equals("3D000"))) {
            return new DatabaseUnavailableException("cannot " + what + " on PostgreSQL at " + url()
                    + (user == null ? "" : " as " + user) + ": " + message + ". Check that the server"
                    + " runs and accepts connections from this host, and that the password is in " + ENV_PASSWORD
                    + " or " + ENV_PGPASSWORD + " (or the password file)", e);
        }
        return new PgException("cannot " + what + " on PostgreSQL at " + url() + ": " + message
                + " (SQL state " + state + ")", e);
    }

    private Connection borrow() {
        synchronized (idle) {
            if (closed) {
                throw new IllegalStateException("the database " + url() + " was closed");
            }
            Connection c = idle.pollFirst();
            if (c != null) {
                return c;
            }
        }
        try {
            return connect();
        } catch (SQLException e) {
            throw translate(e, "connect");
        }
    }

    private void release(Connection c, boolean ok) {
        synchronized (idle) {
            if (ok && !closed && idle.size() < poolSize) {
                idle.addFirst(c);
                return;
            }
        }
        closeQuietly(c);
    }

    /** A new connection of its own (not pooled), for the caller to close. */
    public Connection connect() throws SQLException {
        Properties p = new Properties();
        if (user != null) {
            p.setProperty("user", user);
        }
        if (password != null) {
            p.setProperty("password", new String(password));
        }
        p.setProperty("connectTimeout", Long.toString(Math.max(1, connectTimeout.toSeconds())));
        p.setProperty("loginTimeout", Long.toString(Math.max(1, connectTimeout.toSeconds())));
        p.setProperty("ApplicationName", applicationName);
        return DriverManager.getConnection(url, p);
    }

    private static void closeQuietly(Connection c) {
        try {
            c.close();
        } catch (SQLException e) {
            // a broken connection: nothing to keep
        }
    }

    @Override
    public void close() {
        synchronized (idle) {
            closed = true;
            idle.forEach(PgDatabase::closeQuietly);
            idle.clear();
        }
    }

    @Override
    public String toString() {
        return "PgDatabase[" + url() + (user == null ? "" : ", user " + user) + "]";
    }

    /** Builds a {@link PgDatabase}. */
    public static final class Builder {
        private final String url;
        private String user;
        private char[] password;
        private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
        private String applicationName = "harness4j";
        private int poolSize = DEFAULT_POOL_SIZE;

        private Builder(String url) {
            Objects.requireNonNull(url, "jdbcUrl");
            if (!url.startsWith(JdbcUrls.PREFIX)) {
                throw new IllegalArgumentException("not a PostgreSQL JDBC URL (it starts with " + JdbcUrls.PREFIX
                        + "): " + JdbcUrls.redact(url));
            }
            this.url = url;
        }

        public Builder user(String value) {
            this.user = value;
            return this;
        }

        public Builder password(char[] value) {
            this.password = value == null ? null : value.clone();
            return this;
        }

        /**
         * The password from {@value PgDatabase#ENV_PASSWORD}, else {@value PgDatabase#ENV_PGPASSWORD};
         * none when neither is set.
         */
        public Builder passwordFromEnvironment(Map<String, String> env) {
            String v = env.get(ENV_PASSWORD);
            if (v == null || v.isEmpty()) {
                v = env.get(ENV_PGPASSWORD);
            }
            if (v != null && !v.isEmpty()) {
                this.password = v.toCharArray();
            }
            return this;
        }

        /** The password from the first line of a file (readable by its owner only, say). */
        public Builder passwordFile(Path file) {
            try {
                String text = Files.readString(file, StandardCharsets.UTF_8);
                int nl = text.indexOf('\n');
                this.password = (nl < 0 ? text : text.substring(0, nl)).strip().toCharArray();
            } catch (IOException e) {
                throw new IllegalArgumentException("cannot read the database password file " + file + ": " + e, e);
            }
            return this;
        }

        public Builder connectTimeout(Duration value) {
            if (value == null || value.isNegative() || value.isZero()) {
                throw new IllegalArgumentException("connectTimeout must be > 0, was " + value);
            }
            this.connectTimeout = value;
            return this;
        }

        /** The name the server shows for these connections ({@code pg_stat_activity}). */
        public Builder applicationName(String value) {
            this.applicationName = Objects.requireNonNull(value, "applicationName");
            return this;
        }

        public Builder poolSize(int value) {
            if (value < 0) {
                throw new IllegalArgumentException("poolSize must be >= 0, was " + value);
            }
            this.poolSize = value;
            return this;
        }

        /** @throws IllegalArgumentException when the URL carries a password */
        public PgDatabase build() {
            if (JdbcUrls.carriesPassword(url)) {
                throw new IllegalArgumentException("the JDBC URL " + JdbcUrls.redact(url) + " carries a password;"
                        + " remove it and put it in " + ENV_PASSWORD + " or " + ENV_PGPASSWORD
                        + " (or a password file), so it never shows on a command line or in a log");
            }
            return new PgDatabase(this);
        }
    }
}
