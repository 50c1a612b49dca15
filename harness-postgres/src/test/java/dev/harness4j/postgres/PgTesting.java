package dev.harness4j.postgres;

import dev.harness4j.api.RunSpec;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.BooleanSupplier;

/** Small helpers shared by the tests of this module. */
final class PgTesting {
    private PgTesting() {}

    static RunSpec spec(String harness, String provider, int i) {
        return RunSpec.builder(harness, provider).model("m").prompt("task " + i).baseline(Path.of("/tmp/none"))
                .task("t" + i).build();
    }

    static List<RunSpec> specs(String harness, String provider, int n) {
        List<RunSpec> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(spec(harness, provider, i));
        }
        return out;
    }

    /** The first column of the first row of a query. */
    static long scalar(PgDatabase db, String sql) {
        return db.withConnection(c -> {
            try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
                r.next();
                return r.getLong(1);
            }
        }, "test query");
    }

    static int update(PgDatabase db, String sql) {
        return db.withConnection(c -> {
            try (Statement s = c.createStatement()) {
                return s.executeUpdate(sql);
            }
        }, "test update");
    }

    /** Polls {@code condition} every 50 ms until it holds; fails after {@code timeout}. */
    static void await(String what, Duration timeout, BooleanSupplier condition) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("timed out after " + timeout + " waiting for " + what);
            }
            Thread.sleep(50);
        }
    }

    /** A complete meta.json of the schema core writes (fields the summary reads). */
    static String meta(String harness, String model, String task, String outcome, int trial, long durationMs,
            long tokensIn, double costUsd, String verifyStatus) {
        return String.format(Locale.ROOT, "{\"schema_version\":1,\"harness\":\"%s\",\"provider\":\"scripted\","
                + "\"model\":\"%s\",\"resolved_model\":\"%s\",\"task\":\"%s\",\"trial\":%d,\"outcome\":\"%s\","
                + "\"reason\":%s,\"duration_ms\":%d,\"changes\":{\"files_changed\":1,\"insertions\":3,\"deletions\":0},"
                + "\"tokens\":{\"input\":%d,\"output\":7,\"source\":\"adapter\"},"
                + "\"cost\":{\"usd\":%.6f,\"source\":\"cli-estimate\"},\"served_model\":{\"verdict\":\"match\"},"
                + "\"verify\":%s}", harness, model, model, task, trial, outcome,
                outcome.equals("completed") ? "null" : "\"exit 1\"", durationMs, tokensIn, costUsd,
                verifyStatus == null ? "null" : "{\"status\":\"" + verifyStatus + "\",\"reward\":"
                        + (verifyStatus.equals("passed") ? "1.0" : "0.0") + "}");
    }

    static void exec(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }
}
