package dev.harness4j.postgres;

import dev.harness4j.postgres.internal.Artifacts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a live view ({@code harness4j serve --db}) reads of the shared queue while workers run it,
 * never writing: every entry with its state, attempt and lease holder, and a cheap fingerprint
 * that changes when an entry moves or a result is recorded. The results themselves are read with
 * {@link PgResults}. Thread-safe (each call borrows a pooled connection).
 */
public final class PgLiveView {
    private final PgDatabase db;

    /**
     * A view of {@code db}'s queue.
     *
     * @param db the database (its schema migrated)
     */
    public PgLiveView(PgDatabase db) {
        this.db = Objects.requireNonNull(db, "db");
    }

    /**
     * One queue entry as a live view shows it.
     *
     * @param id the entry id
     * @param bench the bench it was planned into, or {@code null}
     * @param state {@code queued}, {@code running}, {@code done}, {@code failed} or {@code interrupted}
     * @param runId the run id of its current or last attempt, or {@code null} before the first claim
     * @param worker the worker holding or last holding it, or {@code null}
     * @param task the task label ({@code <bench>/<task>}), or {@code null}
     * @param harness the harness id
     * @param model the model, or {@code null} for the provider's default
     * @param trial the trial number (1 when the spec gives none)
     * @param attempts how many times it was claimed
     * @param since when the running attempt started, else when the entry last changed
     * @param notBefore the earliest time it may be claimed again (a retry's pause), or {@code null}
     * @param lastOutcome the outcome of its last attempt, or {@code null}
     * @param maxTokens the spec's token budget, or {@code null}
     * @param maxCostUsd the spec's cost budget, or {@code null}
     */
    public record Entry(String id, String bench, String state, String runId, String worker, String task, String harness,
            String model, int trial, int attempts, Instant since, Instant notBefore, String lastOutcome, Long maxTokens,
            BigDecimal maxCostUsd) {
        /** Checks the required parts. */
        public Entry {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(state, "state");
            Objects.requireNonNull(harness, "harness");
        }
    }

    /**
     * The entries of one bench, or of every bench, in queue order.
     *
     * @param bench the bench id, or {@code null} for all
     * @return the entries
     */
    public List<Entry> entries(String bench) {
        return db.withConnection(c -> {
            List<Entry> out = new ArrayList<>();
            try (PreparedStatement p = c.prepareStatement("SELECT id, bench, state, run_id, worker, spec->>'task',"
                    + " harness, spec->>'model', spec->>'trial', attempts, CASE WHEN state = 'running' THEN"
                    + " coalesce(started_at, updated_at) ELSE updated_at END, not_before, last_outcome,"
                    + " spec->'limits'->>'max_tokens', spec->'limits'->>'max_cost_usd' FROM h4j_queue"
                    + " WHERE ?::text IS NULL OR bench = ? ORDER BY seq")) {
                p.setString(1, bench);
                p.setString(2, bench);
                p.setFetchSize(5_000);
                try (ResultSet r = p.executeQuery()) {
                    while (r.next()) {
                        out.add(new Entry(r.getString(1), r.getString(2), r.getString(3), r.getString(4), r.getString(5),
                                r.getString(6), r.getString(7), r.getString(8), trial(r.getString(9)), r.getInt(10),
                                instant(r.getTimestamp(11)), instant(r.getTimestamp(12)), r.getString(13),
                                r.getString(14) == null ? null : Long.valueOf(r.getString(14)),
                                r.getString(15) == null ? null : new BigDecimal(r.getString(15))));
                    }
                }
            }
            return out;
        }, "read the queue" + (bench == null ? "" : " of bench " + bench));
    }

    /**
     * A value that changes when an entry of the queue changes or a result is recorded: the counts
     * and latest change times of both tables, read in one statement.
     *
     * @return the fingerprint
     */
    public String fingerprint() {
        return db.withConnection(c -> {
            try (PreparedStatement p = c.prepareStatement("SELECT (SELECT count(*) || '@' || coalesce(max(updated_at)"
                    + "::text, '') FROM h4j_queue) || ';' || (SELECT count(*) || '@' || coalesce(max(written_at)::text, '')"
                    + " FROM h4j_result)");
                    ResultSet r = p.executeQuery()) {
                r.next();
                return r.getString(1);
            }
        }, "read the queue's fingerprint");
    }

    /**
     * Writes one run's result as a directory {@code <root>/<run id>} — {@code meta.json} and the
     * stored artifacts ({@code transcript.log} unzipped) — for a page to read; empty when the run
     * has no recorded result.
     *
     * @param runId the run id (checked by the caller to be a plain name)
     * @param root where to write it
     * @return the directory
     * @throws UncheckedIOException when a file cannot be written
     */
    public Optional<Path> materializeRun(String runId, Path root) {
        Path dir = root.toAbsolutePath().normalize().resolve(runId).normalize();
        if (!dir.getParent().equals(root.toAbsolutePath().normalize())) {
            throw new IllegalArgumentException("not a run id: " + runId);
        }
        return db.withConnection(c -> {
            try (PreparedStatement p = c.prepareStatement("SELECT r.meta::text, a.name, a.content FROM h4j_result r"
                    + " LEFT JOIN h4j_artifact a ON a.run_id = r.run_id WHERE r.run_id = ?")) {
                p.setString(1, runId);
                try (ResultSet r = p.executeQuery()) {
                    boolean any = false;
                    while (r.next()) {
                        try {
                            if (!any) {
                                Files.createDirectories(dir);
                                Files.writeString(dir.resolve("meta.json"), r.getString(1), StandardCharsets.UTF_8);
                                any = true;
                            }
                            String name = r.getString(2);
                            if (name != null) {
                                boolean gz = name.equals(ArtifactCaps.TRANSCRIPT_GZ);
                                Files.write(dir.resolve(gz ? "transcript.log" : Path.of(name).getFileName().toString()),
                                        gz ? Artifacts.gunzip(r.getBytes(3)) : r.getBytes(3));
                            }
                        } catch (IOException e) {
                            throw new UncheckedIOException("cannot write " + dir + ": " + e.getMessage(), e);
                        }
                    }
                    return any ? Optional.of(dir) : Optional.<Path>empty();
                }
            }
        }, "read the result of run " + runId);
    }

    private static int trial(String s) {
        try {
            return s == null ? 1 : Math.max(1, Integer.parseInt(s));
        } catch (NumberFormatException e) {
            return 1;
        }
    }

    private static Instant instant(Timestamp t) {
        return t == null ? null : t.toInstant();
    }
}
