package dev.harness4j.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Outcome;
import dev.harness4j.bench.BenchMetrics;
import dev.harness4j.bench.BenchSummary;
import dev.harness4j.bench.SummaryFormat;
import dev.harness4j.core.queue.RetryPolicy;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PgResultsTest {
    private final PgServer pg = PgServer.shared();
    private PgDatabase db;
    private PgQueue queue;
    private PgResults results;
    @TempDir Path state;

    @BeforeEach
    void setUp() {
        db = pg.database(pg.newDatabase());
        db.migrate();
        queue = new PgQueue(db);
        results = new PgResults(db);
    }

    @AfterEach
    void tearDown() {
        db.close();
    }

    private Path resultDir(String task, String combo, String runId, String meta) throws Exception {
        Path d = Files.createDirectories(state.resolve("results").resolve(task.replace('/', '-')).resolve(combo).resolve(runId));
        Files.writeString(d.resolve("meta.json"), meta, StandardCharsets.UTF_8);
        return d;
    }

    /** Claims the next entry and finishes it with the result directory {@code dir}. */
    private PgLease runOne(Path dir, Outcome outcome, ArtifactCaps caps) {
        PgLease l = queue.claim("w", Duration.ofMinutes(5)).orElseThrow();
        PgResults.Upload u = PgResults.upload(state.resolve("results"), dir, caps, "w");
        assertThat(queue.finish(l, HarnessResult.builder(outcome, "m").build(), RetryPolicy.DEFAULT, u))
                .isEqualTo(PgQueue.Finish.RECORDED);
        return l;
    }

    @Test
    void theSummaryFromTheDatabaseEqualsTheOneReadFromTheResultFiles() throws Exception {
        String[][] runs = {
            {"claude-code", "a", "b1/t1", "completed", "passed"}, {"claude-code", "a", "b1/t2", "completed", "failed"},
            {"aider", "a", "b1/t1", "error", null}, {"aider", "b", "b1/t2", "completed", "passed"},
            {"opencode", "b", "b1/t1", "timeout", "not-verified"}};
        queue.enqueue("b1", PgTesting.specs("h", "p", runs.length), RetryPolicy.DEFAULT);
        for (int i = 0; i < runs.length; i++) {
            String[] r = runs[i];
            Path dir = resultDir(r[2], r[0] + "__scripted__" + r[1], "run-" + i,
                    PgTesting.meta(r[0], r[1], r[2], r[3], 1 + i % 2, 1000L * (i + 1), 100 + i, 0.01 * i, r[4]));
            runOne(dir, Outcome.COMPLETED, ArtifactCaps.DEFAULT);
        }
        BenchSummary fromFiles = BenchSummary.read(state);
        BenchSummary fromDb = results.summary("b1");
        assertThat(fromFiles.problems()).isEmpty();
        assertThat(fromDb.rows()).isEqualTo(fromFiles.rows());
        assertThat(SummaryFormat.leaderboard(BenchMetrics.of(fromDb)))
                .isEqualTo(SummaryFormat.leaderboard(BenchMetrics.of(fromFiles)));
        assertThat(results.summary("another-bench").rows()).isEmpty();
        assertThat(results.count(null)).isEqualTo(runs.length);
    }

    @Test
    void anArtifactOverItsCapIsStoredTruncatedWithAMarkerAndTheFullFileKeptOnTheWorker() throws Exception {
        queue.enqueue("b", PgTesting.specs("h", "p", 1), RetryPolicy.DEFAULT);
        Path dir = resultDir("t", "h__scripted__m", "run-1", PgTesting.meta("h", "m", "t", "completed", 1, 5, 1, 0, null));
        String diff = "+line\n".repeat(2_000); // 12,000 bytes
        Files.writeString(dir.resolve("diff.patch"), diff);
        Files.writeString(dir.resolve("diffstat.txt"), " a.txt | 2000 +\n");
        StringBuilder transcript = new StringBuilder();
        for (int i = 0; i < 20_000; i++) {
            transcript.append("step ").append(i).append(' ').append(Integer.toHexString(i * 7919)).append('\n');
        }
        Files.writeString(dir.resolve("transcript.log"), transcript);
        ArtifactCaps caps = ArtifactCaps.DEFAULT.withCap("diff.patch", 4_096).withCap(ArtifactCaps.TRANSCRIPT_GZ, 2_048);
        PgLease l = runOne(dir, Outcome.COMPLETED, caps);

        PgResults.Artifact stored = results.artifact(l.runId(), "diff.patch").orElseThrow();
        String text = new String(stored.content(), StandardCharsets.UTF_8);
        assertThat(stored.content().length).isLessThanOrEqualTo(4_096);
        assertThat(stored.truncated()).isTrue();
        assertThat(stored.size()).isEqualTo(diff.length());
        assertThat(stored.fullPath()).isEqualTo(dir.resolve("diff.patch").toAbsolutePath().toString());
        assertThat(text).startsWith("+line\n+line\n").contains("[harness4j: truncated here")
                .contains("of 12000 bytes stored").contains(stored.fullPath());
        assertThat(diff).startsWith(text.substring(0, text.indexOf("\n[harness4j:")));

        PgResults.Artifact small = results.artifact(l.runId(), "diffstat.txt").orElseThrow();
        assertThat(small.truncated()).isFalse();
        assertThat(small.fullPath()).isNull();
        assertThat(new String(small.content(), StandardCharsets.UTF_8)).isEqualTo(" a.txt | 2000 +\n");

        PgResults.Artifact gz = results.artifact(l.runId(), ArtifactCaps.TRANSCRIPT_GZ).orElseThrow();
        assertThat(gz.content().length).isLessThanOrEqualTo(2_048);
        assertThat(gz.truncated()).isTrue();
        String unzipped;
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gz.content()))) {
            unzipped = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertThat(unzipped).startsWith("step 0 0\nstep 1 1eef\n").contains("[harness4j: truncated here");
        assertThat(results.artifact(l.runId(), "verify.log")).isEmpty();
        assertThat(results.meta(l.runId()).orElseThrow()).contains("\"harness\": \"h\"");
    }

    @Test
    void aWorkerThatLostItsLeaseWritesNoResultRow() throws Exception {
        queue.enqueue("b", PgTesting.specs("h", "p", 1), RetryPolicy.DEFAULT);
        PgLease stale = queue.claim("frozen", Duration.ofMillis(200)).orElseThrow();
        PgTesting.await("the lease to be reaped", Duration.ofSeconds(60), () -> !queue.reapExpired().isEmpty());
        queue.claim("other", Duration.ofMinutes(5)).orElseThrow();
        Path dir = resultDir("t", "h__scripted__m", "run-1", PgTesting.meta("h", "m", "t", "completed", 1, 5, 1, 0, null));
        PgResults.Upload u = PgResults.upload(state.resolve("results"), dir, ArtifactCaps.DEFAULT, "frozen");
        assertThat(queue.finish(stale, HarnessResult.builder(Outcome.COMPLETED, "m").build(), RetryPolicy.DEFAULT, u))
                .isEqualTo(PgQueue.Finish.LEASE_LOST);
        assertThat(results.count(null)).isZero();
    }
}
