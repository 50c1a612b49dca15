package dev.harness4j.cli;

import dev.harness4j.postgres.PgDatabase;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The options naming the shared PostgreSQL database ({@code --db}): the URL without a password,
 * the user, and where the password comes from (the environment or a file, never the command line).
 */
final class DbOptions {
    @Option(names = "--db", description = "the shared queue and results: a PostgreSQL JDBC URL without password,"
            + " e.g. jdbc:postgresql://db.internal:5432/bench; the password comes from HARNESS4J_DB_PASSWORD or"
            + " PGPASSWORD or --db-password-file")
    String url;
    @Option(names = "--db-user", description = "the database user (default: PGUSER, else the driver's default)")
    String user;
    @Option(names = "--db-password-file", description = "a file whose first line is the database password")
    Path passwordFile;

    boolean present() {
        return url != null;
    }

    /** The database; the password from the file, else the environment. */
    PgDatabase open(String applicationName) {
        String u = user != null ? user : System.getenv("PGUSER");
        PgDatabase.Builder b = PgDatabase.builder(url).user(u).applicationName(applicationName);
        if (passwordFile != null) {
            b.passwordFile(passwordFile);
        } else {
            b.passwordFromEnvironment(System.getenv());
        }
        return b.build();
    }
}
