package dev.harness4j.postgres;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * A real PostgreSQL server for tests, one per JVM: the distribution's {@code initdb} and {@code
 * pg_ctl} (Debian's {@code postgresql} package; {@code scripts/test.sh} installs it) start a
 * cluster in a temp dir, listening on loopback only on a free port, with its unix socket in the
 * temp dir and password (SCRAM) logins over TCP. When the JVM runs as root, the server runs as
 * {@code nobody} (PostgreSQL refuses root). A shutdown hook stops it ({@code pg_ctl stop -m
 * immediate}) and deletes the temp dir.
 *
 * <pre>{@code
 * PgServer pg = PgServer.shared();
 * String url = pg.newDatabase();                    // a fresh empty database per test class
 * PgDatabase db = pg.database(url);                 // user and password set
 * }</pre>
 */
public final class PgServer {
    /** The superuser the cluster is created with. */
    public static final String USER = "postgres";

    private static PgServer shared;

    private final Path dir;
    private final Path bin;
    private final int port;
    private final String password;
    private final boolean asNobody;
    private final AtomicInteger databases = new AtomicInteger();

    private PgServer(Path dir, Path bin, int port, String password, boolean asNobody) {
        this.dir = dir;
        this.bin = bin;
        this.port = port;
        this.password = password;
        this.asNobody = asNobody;
    }

    /** The server of this JVM, started on first use. */
    public static synchronized PgServer shared() {
        if (shared == null) {
            try {
                shared = start();
            } catch (IOException e) {
                throw new IllegalStateException("cannot start the test PostgreSQL server: " + e.getMessage(), e);
            }
            PgServer s = shared;
            Runtime.getRuntime().addShutdownHook(new Thread(s::stop, "pg-test-server-stop"));
        }
        return shared;
    }

    /** The directory holding the server binaries ({@code HARNESS4J_PG_BIN}, else the newest under /usr/lib/postgresql). */
    public static Path binDir() throws IOException {
        String env = System.getenv("HARNESS4J_PG_BIN");
        if (env != null && !env.isBlank()) {
            return Path.of(env);
        }
        Path root = Path.of("/usr/lib/postgresql");
        if (Files.isDirectory(root)) {
            try (Stream<Path> versions = Files.list(root)) {
                var found = versions.map(v -> v.resolve("bin"))
                        .filter(b -> Files.isExecutable(b.resolve("initdb")))
                        .max(Comparator.comparing(b -> versionOf(b.getParent())));
                if (found.isPresent()) {
                    return found.get();
                }
            }
        }
        throw new IOException("no PostgreSQL server binaries (initdb, pg_ctl) under /usr/lib/postgresql and"
                + " HARNESS4J_PG_BIN is not set; install them with: apt-get install postgresql"
                + " (scripts/test.sh does)");
    }

    private static int versionOf(Path versionDir) {
        try {
            return Integer.parseInt(versionDir.getFileName().toString().replaceAll("[^0-9].*", ""));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static PgServer start() throws IOException {
        Path bin = binDir();
        boolean root = "root".equals(System.getProperty("user.name"));
        // as root the server runs as nobody, who must be able to reach the directory: /tmp, not $TMPDIR
        Path parent = root ? Path.of("/tmp") : Path.of(System.getProperty("java.io.tmpdir"));
        Path dir = Files.createTempDirectory(parent, "harness4j-pg-");
        byte[] b = new byte[12];
        new SecureRandom().nextBytes(b);
        String password = HexFormat.of().formatHex(b);
        Path pwfile = dir.resolve("pwfile");
        Files.writeString(pwfile, password + "\n", StandardCharsets.UTF_8);
        if (root) {
            exec(List.of("chown", "-R", "nobody:nogroup", dir.toString()), false, dir);
        }
        int port = freePort();
        PgServer s = new PgServer(dir, bin, port, password, root);
        try {
            s.run(List.of(bin.resolve("initdb").toString(), "-D", dir.resolve("data").toString(), "-U", USER,
                    "--pwfile=" + pwfile, "--auth-local=trust", "--auth-host=scram-sha-256", "-E", "UTF8",
                    "--locale=C", "--no-sync"));
            Files.deleteIfExists(pwfile);
            s.run(List.of(bin.resolve("pg_ctl").toString(), "-D", dir.resolve("data").toString(), "-l",
                    dir.resolve("server.log").toString(), "-w", "-t", "120", "-o",
                    "-p " + port + " -k " + dir + " -c listen_addresses=127.0.0.1 -c fsync=off"
                            + " -c synchronous_commit=off -c full_page_writes=off -c max_connections=200",
                    "start"));
        } catch (IOException e) {
            String log = "";
            try {
                log = Files.readString(dir.resolve("server.log"));
            } catch (IOException ignored) {
                // no log written
            }
            s.stop();
            throw new IOException(e.getMessage() + (log.isEmpty() ? "" : "\nserver log:\n" + log), e);
        }
        return s;
    }

    private void run(List<String> argv) throws IOException {
        exec(argv, asNobody, dir);
    }

    private static void exec(List<String> argv, boolean asNobody, Path dir) throws IOException {
        List<String> cmd = new ArrayList<>();
        if (asNobody) {
            cmd.addAll(List.of("setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"));
        }
        cmd.addAll(argv);
        Path out = Files.createTempFile("harness4j-pg-cmd-", ".log");
        try {
            Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(out.toFile()).start();
            if (!p.waitFor(180, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("timed out after 180 s: " + String.join(" ", cmd));
            }
            if (p.exitValue() != 0) {
                throw new IOException("exit " + p.exitValue() + ": " + String.join(" ", cmd) + "\n"
                        + Files.readString(out));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted: " + String.join(" ", cmd), e);
        } finally {
            Files.deleteIfExists(out);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    public int port() {
        return port;
    }

    public String password() {
        return password;
    }

    /** The JDBC URL of a database on this server. */
    public String url(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
    }

    /** Creates a fresh, empty database and returns its JDBC URL. */
    public String newDatabase() {
        String name = "t" + ProcessHandle.current().pid() + "_" + databases.incrementAndGet();
        try (Connection c = connect("postgres"); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create test database " + name + ": " + e.getMessage(), e);
        }
        return url(name);
    }

    /** A {@link PgDatabase} on a URL of this server, with its user and password. */
    public PgDatabase database(String url) {
        return PgDatabase.builder(url).user(USER).password(password.toCharArray()).build();
    }

    public Connection connect(String database) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", USER);
        p.setProperty("password", password);
        return DriverManager.getConnection(url(database), p);
    }

    /** Stops the server at once and deletes its directory; idempotent. */
    public synchronized void stop() {
        try {
            if (Files.exists(dir.resolve("data").resolve("postmaster.pid"))) {
                run(List.of(bin.resolve("pg_ctl").toString(), "-D", dir.resolve("data").toString(), "-m",
                        "immediate", "-w", "stop"));
            }
        } catch (IOException e) {
            System.err.println("[PgServer] could not stop the test server in " + dir + ": " + e.getMessage());
        }
        try (Stream<Path> all = Files.walk(dir)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // best effort: a temp dir
        }
    }
}
