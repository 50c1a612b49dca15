package dev.harness4j.postgres;

import com.fasterxml.jackson.databind.JsonNode;
import dev.harness4j.bench.BenchMetrics;
import dev.harness4j.bench.BenchSummary;
import dev.harness4j.bench.ResultRow;
import dev.harness4j.postgres.internal.Artifacts;
import dev.harness4j.postgres.internal.Jsons;
import dev.harness4j.postgres.internal.MetaColumns;
import dev.harness4j.postgres.internal.MetricsQuery;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Results in PostgreSQL: each run's {@code meta.json} as {@code jsonb}, the columns the summary
 * and filters read, and its small artifacts under {@link ArtifactCaps}. Summaries, metrics and
 * reports are built from the database alone, on any machine, with harness-bench's own code
 * ({@link BenchSummary}, {@link BenchMetrics}, {@code SummaryFormat}, {@code HtmlReport}).
 *
 * <pre>{@code
 * PgResults results = new PgResults(db);
 * BenchSummary s = results.summary("my-bench");      // null: every bench
 * System.out.print(SummaryFormat.leaderboard(BenchMetrics.of(s)));
 * }</pre>
 *
 * <p>Results are written by {@link PgQueue#finish} in the transaction that checks the lease, so
 * a worker that lost its lease writes none.
 */
public final class PgResults {
    private final PgDatabase db;

    public PgResults(PgDatabase db) {
        this.db = Objects.requireNonNull(db, "db");
    }

    /**
     * One run's result as it is written: meta.json, its columns, the capped artifacts.
     *
     * @param dir the result directory below {@code results/}, as on the worker
     * @param workerDir the absolute result directory on the worker's disk
     * @param metaJson the meta.json text
     * @param columns the columns read from it
     * @param artifacts the artifacts found, capped
     */
    public record Upload(String dir, String workerDir, String metaJson, MetaColumns columns, List<Artifact> artifacts) {
        public Upload {
            Objects.requireNonNull(dir, "dir");
            Objects.requireNonNull(metaJson, "metaJson");
            Objects.requireNonNull(columns, "columns");
            artifacts = List.copyOf(artifacts);
        }
    }

    /**
     * One stored artifact.
     *
     * @param name the stored name ({@code diff.patch}, ..., {@link ArtifactCaps#TRANSCRIPT_GZ})
     * @param content the stored bytes (truncated with a marker when over the cap)
     * @param size the full file's size in bytes (uncompressed for the transcript)
     * @param truncated whether {@code content} is cut
     * @param fullPath where the full file is on the worker's disk when truncated, else {@code null}
     */
    public record Artifact(String name, byte[] content, long size, boolean truncated, String fullPath) {
        public Artifact {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(content, "content");
        }
    }

    /**
     * Reads a finished run's result directory into an {@link Upload}.
     *
     * @param resultsRoot the {@code results} directory the run's directory is under
     * @param worker the worker's name, written into truncation markers
     * @throws UncheckedIOException when meta.json cannot be read
     * @throws IllegalArgumentException when meta.json is not a finished run's
     */
    public static Upload upload(Path resultsRoot, Path resultDir, ArtifactCaps caps, String worker) {
        Path meta = resultDir.resolve("meta.json");
        String metaJson;
        JsonNode node;
        try {
            metaJson = Files.readString(meta, StandardCharsets.UTF_8);
            node = Jsons.read(metaJson); // decimals exact: 0.020000 stays 0.020000, as bench reads it
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + meta + ": " + e.getMessage(), e);
        }
        List<Artifact> artifacts = new ArrayList<>();
        for (String name : caps.caps().keySet()) {
            boolean gz = name.equals(ArtifactCaps.TRANSCRIPT_GZ);
            Path file = resultDir.resolve(gz ? "transcript.log" : name);
            if (!Files.isRegularFile(file)) {
                continue;
            }
            byte[] bytes;
            try {
                bytes = Files.readAllBytes(file);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
            }
            long cap = caps.capOf(name);
            String full = file.toAbsolutePath().toString();
            if (gz) {
                Artifacts.Gz z = Artifacts.gzipCapped(bytes, cap, worker, full);
                artifacts.add(new Artifact(name, z.bytes(), bytes.length, z.truncated(), z.truncated() ? full : null));
            } else if (bytes.length > cap) {
                artifacts.add(new Artifact(name, Artifacts.truncate(bytes, cap, worker, full), bytes.length, true, full));
            } else {
                artifacts.add(new Artifact(name, bytes, bytes.length, false, null));
            }
        }
        String dir = resultsRoot.toAbsolutePath().relativize(resultDir.toAbsolutePath()).toString();
        return new Upload(dir, resultDir.toAbsolutePath().toString(), metaJson, MetaColumns.of(node), artifacts);
    }

    /** Writes a result in the caller's transaction; a second write of the same run id changes nothing. */
    static void insert(Connection c, PgLease lease, Upload u) throws SQLException {
        MetaColumns m = u.columns();
        try (PreparedStatement p = c.prepareStatement("INSERT INTO h4j_result (run_id, entry_id, bench, worker, dir,"
                + " worker_dir, meta, harness, provider, model, task, outcome, reason, trial, duration_ms, files_changed,"
                + " insertions, deletions, tokens_in, tokens_out, token_source, cost_usd, cost_source, served_verdict,"
                + " branch, verify_status, reward, rewards) VALUES (?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
                + " ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb) ON CONFLICT (run_id) DO NOTHING")) {
            int i = 1;
            p.setString(i++, lease.runId());
            p.setString(i++, lease.entryId());
            p.setString(i++, lease.bench());
            p.setString(i++, lease.worker());
            p.setString(i++, u.dir());
            p.setString(i++, u.workerDir());
            p.setString(i++, u.metaJson());
            p.setString(i++, m.harness());
            p.setString(i++, m.provider());
            p.setString(i++, m.model());
            p.setString(i++, m.task());
            p.setString(i++, m.outcome());
            p.setString(i++, m.reason());
            p.setInt(i++, m.trial());
            for (Long v : new Long[] {m.durationMs(), m.filesChanged(), m.insertions(), m.deletions(), m.tokensIn(),
                    m.tokensOut()}) {
                p.setObject(i++, v, Types.BIGINT);
            }
            p.setString(i++, m.tokenSource());
            p.setBigDecimal(i++, m.costUsd());
            p.setString(i++, m.costSource());
            p.setString(i++, m.servedVerdict());
            p.setString(i++, m.branch());
            p.setString(i++, m.verifyStatus());
            p.setObject(i++, m.reward(), Types.DOUBLE);
            p.setString(i, m.rewards());
            if (p.executeUpdate() == 0) {
                return; // written before: its artifacts too
            }
        }
        try (PreparedStatement p = c.prepareStatement("INSERT INTO h4j_artifact (run_id, name, content, size, truncated,"
                + " full_path) VALUES (?, ?, ?, ?, ?, ?)")) {
            for (Artifact a : u.artifacts()) {
                p.setString(1, lease.runId());
                p.setString(2, a.name());
                p.setBytes(3, a.content());
                p.setLong(4, a.size());
                p.setBoolean(5, a.truncated());
                p.setString(6, a.fullPath());
                p.addBatch();
            }
            p.executeBatch();
        }
    }

    /** The summary of one bench's results ({@code null}: every result), from the database alone. */
    public BenchSummary summary(String bench) {
        List<ResultRow> rows = db.withConnection(c -> {
            List<ResultRow> out = new ArrayList<>();
            try (PreparedStatement p = c.prepareStatement("SELECT dir, harness, provider, model, task, outcome, reason,"
                    + " duration_ms, files_changed, insertions, deletions, tokens_in, tokens_out, token_source, cost_usd,"
                    + " cost_source, served_verdict, branch, trial, verify_status, reward, rewards::text FROM h4j_result"
                    + " WHERE ?::text IS NULL OR bench = ? ORDER BY dir")) {
                p.setString(1, bench);
                p.setString(2, bench);
                p.setFetchSize(5_000);
                try (ResultSet r = p.executeQuery()) {
                    while (r.next()) {
                        out.add(new ResultRow(r.getString(1), r.getString(2), r.getString(3), r.getString(4),
                                r.getString(5), r.getString(6), r.getString(7), longOrNull(r, 8), longOrNull(r, 9),
                                longOrNull(r, 10), longOrNull(r, 11), longOrNull(r, 12), longOrNull(r, 13),
                                r.getString(14), r.getBigDecimal(15), r.getString(16), r.getString(17),
                                r.getString(18), r.getInt(19), r.getString(20), doubleOrNull(r, 21),
                                MetaColumns.rewards(r.getString(22))));
                    }
                }
            }
            return out;
        }, "read the results" + (bench == null ? "" : " of bench " + bench));
        return new BenchSummary(rows, List.of());
    }

    /**
     * The metrics of one bench ({@code null}: every result), from the database alone: summed per
     * combo and task from the narrow columns the figures need ({@link MetricsQuery}), in one
     * consistent snapshot; the same figures as {@code BenchMetrics.of(summary(bench))} without
     * building a {@code ResultRow} per run.
     */
    public BenchMetrics metrics(String bench) {
        return db.inTransaction(c -> {
            try (Statement s = c.createStatement()) {
                s.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY");
            }
            return MetricsQuery.metrics(c, bench);
        }, "read the figures of the results" + (bench == null ? "" : " of bench " + bench));
    }

    /**
     * Writes one bench's results ({@code null}: every result) as result directories under {@code
     * resultsRoot} — {@code meta.json} and the stored artifacts ({@code transcript.log} unzipped;
     * truncated ones as stored, with their marker) — so harness-bench's {@code BenchReport} can
     * render them on a machine that ran none of them.
     *
     * @return how many result directories were written
     * @throws IllegalArgumentException when a stored directory would land outside {@code resultsRoot}
     * @throws UncheckedIOException when a file cannot be written
     */
    public int materialize(String bench, Path resultsRoot) {
        Path root = resultsRoot.toAbsolutePath().normalize();
        return db.withConnection(c -> {
            int n = 0;
            try (PreparedStatement p = c.prepareStatement("SELECT r.dir, r.meta::text, a.name, a.content FROM h4j_result r"
                    + " LEFT JOIN h4j_artifact a ON a.run_id = r.run_id WHERE ?::text IS NULL OR r.bench = ?"
                    + " ORDER BY r.dir")) {
                p.setString(1, bench);
                p.setString(2, bench);
                try (ResultSet r = p.executeQuery()) {
                    Path last = null;
                    while (r.next()) {
                        Path dir = root.resolve(r.getString(1)).normalize();
                        if (!dir.startsWith(root) || dir.equals(root)) {
                            throw new IllegalArgumentException("a stored result directory '" + r.getString(1)
                                    + "' is not below " + root + "; refusing to write it");
                        }
                        try {
                            if (!dir.equals(last)) {
                                Files.createDirectories(dir);
                                Files.writeString(dir.resolve("meta.json"), r.getString(2), StandardCharsets.UTF_8);
                                last = dir;
                                n++;
                            }
                            String name = r.getString(3);
                            if (name != null) {
                                byte[] content = r.getBytes(4);
                                boolean gz = name.equals(ArtifactCaps.TRANSCRIPT_GZ);
                                Files.write(dir.resolve(gz ? "transcript.log" : Path.of(name).getFileName().toString()),
                                        gz ? Artifacts.gunzip(content) : content);
                            }
                        } catch (IOException e) {
                            throw new UncheckedIOException("cannot write " + dir + ": " + e.getMessage(), e);
                        }
                    }
                }
            }
            return n;
        }, "read the results" + (bench == null ? "" : " of bench " + bench));
    }

    /** How many results are stored for a bench ({@code null}: all). */
    public int count(String bench) {
        return db.withConnection(c -> {
            try (PreparedStatement p = c.prepareStatement(
                    "SELECT count(*) FROM h4j_result WHERE ?::text IS NULL OR bench = ?")) {
                p.setString(1, bench);
                p.setString(2, bench);
                try (ResultSet r = p.executeQuery()) {
                    r.next();
                    return r.getInt(1);
                }
            }
        }, "count the results");
    }

    /** A stored artifact of a run. */
    public Optional<Artifact> artifact(String runId, String name) {
        return db.withConnection(c -> {
            try (PreparedStatement p = c.prepareStatement("SELECT content, size, truncated, full_path FROM h4j_artifact"
                    + " WHERE run_id = ? AND name = ?")) {
                p.setString(1, runId);
                p.setString(2, name);
                try (ResultSet r = p.executeQuery()) {
                    return r.next() ? Optional.of(new Artifact(name, r.getBytes(1), r.getLong(2), r.getBoolean(3),
                            r.getString(4))) : Optional.<Artifact>empty();
                }
            }
        }, "read artifact " + name + " of run " + runId);
    }

    /** A run's meta.json as stored. */
    public Optional<String> meta(String runId) {
        return db.withConnection(c -> {
            try (PreparedStatement p = c.prepareStatement("SELECT meta::text FROM h4j_result WHERE run_id = ?")) {
                p.setString(1, runId);
                try (ResultSet r = p.executeQuery()) {
                    return r.next() ? Optional.of(r.getString(1)) : Optional.<String>empty();
                }
            }
        }, "read the meta.json of run " + runId);
    }

    private static Long longOrNull(ResultSet r, int i) throws SQLException {
        long v = r.getLong(i);
        return r.wasNull() ? null : v;
    }

    private static Double doubleOrNull(ResultSet r, int i) throws SQLException {
        double v = r.getDouble(i);
        return r.wasNull() ? null : v;
    }
}
