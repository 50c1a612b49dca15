package dev.harness4j.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class PgDatabaseTest {
    private final PgServer pg = PgServer.shared();

    @Test
    void migratesAnEmptyDatabaseToTheLatestVersionOnceWhenEightWorkersStartAtOnce() throws Exception {
        String url = pg.newDatabase();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                Callable<Integer> start = () -> {
                    try (PgDatabase db = pg.database(url)) {
                        return db.migrate();
                    }
                };
                results.add(pool.submit(start));
            }
            for (Future<Integer> f : results) {
                assertThat(f.get(120, TimeUnit.SECONDS)).isEqualTo(PgDatabase.knownSchemaVersion());
            }
        } finally {
            pool.shutdownNow();
        }
        try (Connection c = pg.connect(url.substring(url.lastIndexOf('/') + 1)); Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT count(*), max(version) FROM h4j_schema_version")) {
            r.next();
            assertThat(r.getInt(1)).isEqualTo(PgDatabase.knownSchemaVersion());
            assertThat(r.getInt(2)).isEqualTo(PgDatabase.knownSchemaVersion());
        }
    }

    @Test
    void refusesASchemaFromANewerVersionAndChangesNothing() throws Exception {
        String url = pg.newDatabase();
        try (PgDatabase db = pg.database(url)) {
            db.migrate();
            db.withConnection(c -> {
                try (Statement s = c.createStatement()) {
                    return s.executeUpdate("INSERT INTO h4j_schema_version (version, description) VALUES (99, 'future')");
                }
            }, "test");
            assertThatThrownBy(db::migrate).isInstanceOf(SchemaTooNewException.class)
                    .hasMessageContaining("schema version 99")
                    .hasMessageContaining("Upgrade harness4j")
                    .hasMessageContaining(url);
            assertThat(db.schemaVersion()).isEqualTo(99);
        }
    }

    @Test
    void anUnreachableDatabaseFailsWithTheUrlWithoutCredentials() throws Exception {
        int closedPort;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        String url = "jdbc:postgresql://127.0.0.1:" + closedPort + "/bench?ssl=false";
        try (PgDatabase db = PgDatabase.builder(url).user("h4j").password("s3cret-pw".toCharArray()).build()) {
            assertThatThrownBy(db::migrate).isInstanceOf(DatabaseUnavailableException.class)
                    .hasMessageContaining(url)
                    .hasMessageContaining("HARNESS4J_DB_PASSWORD")
                    .hasMessageNotContaining("s3cret-pw");
        }
    }

    @Test
    void aWrongPasswordFailsClearlyWithoutPrintingIt() {
        String url = pg.newDatabase();
        try (PgDatabase db = PgDatabase.builder(url).user(PgServer.USER)
                .passwordFromEnvironment(Map.of("PGPASSWORD", "not-the-password")).build()) {
            assertThatThrownBy(db::migrate).isInstanceOf(DatabaseUnavailableException.class)
                    .hasMessageContaining(url).hasMessageNotContaining("not-the-password");
        }
    }

    @Test
    void aUrlCarryingAPasswordIsRefusedWithoutEchoingIt() {
        assertThatThrownBy(() -> PgDatabase.builder("jdbc:postgresql://db:5432/b?user=x&password=hunter2").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("jdbc:postgresql://db:5432/b?user=x")
                .hasMessageNotContaining("hunter2");
        assertThatThrownBy(() -> PgDatabase.builder("jdbc:postgresql://x:hunter2@db:5432/b").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageNotContaining("hunter2");
        PgDatabase.builder("jdbc:postgresql://x@db:5432/b?ssl=true").build().close();
    }
}
