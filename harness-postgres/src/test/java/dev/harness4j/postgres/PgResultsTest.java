package dev.harness4j.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Outcome;
import dev.harness4j.bench.BenchMetrics;
import dev.harness4j.bench.BenchSummary;
import dev.harness4j.bench.SummaryFormat;
import dev.harness4j.core.queue.RetryPolicy;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.math.BigDecimal;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import org.assertj.core.api.recursive.comparison.RecursiveComparisonConfiguration;
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
            String meta = PgTesting.meta(r[0], r[1], r[2], r[3], 1 + i % 2, 1000L * (i + 1), 100 + i, 0.01 * i, r[4]);
            if (i == 0) { // a verifier's named metrics: the summary from the database keeps them too
                meta = meta.replace("\"reward\":1.0}", "\"reward\":1.0,\"rewards\":{\"tests\":1.0,\"lint\":0.5}}");
            }
            Path dir = resultDir(r[2], r[0] + "__scripted__" + r[1], "run-" + i, meta);
            runOne(dir, Outcome.COMPLETED, ArtifactCaps.DEFAULT);
        }
        BenchSummary fromFiles = BenchSummary.read(state);
        BenchSummary fromDb = results.summary("b1");
        assertThat(fromFiles.problems()).isEmpty();
        assertThat(fromDb.rows()).isEqualTo(fromFiles.rows());
        assertThat(fromDb.rows().stream().filter(x -> x.harness().equals("claude-code") && x.task().equals("b1/t1"))
                .findFirst().orElseThrow().rewards()).containsOnly(java.util.Map.entry("tests", 1.0),
                java.util.Map.entry("lint", 0.5));
        assertThat(SummaryFormat.leaderboard(BenchMetrics.of(fromDb)))
                .isEqualTo(SummaryFormat.leaderboard(BenchMetrics.of(fromFiles)));
        assertThat(results.summary("another-bench").rows()).isEmpty();
        assertThat(results.count(null)).isEqualTo(runs.length);
    }

    /**
     * The metrics from the narrow columns (no ResultRow built) equal harness-bench's over the rows read from
     * the files: trials for pass@k, partly measured tokens and cost ("n/m measured"), several cost
     * sources, rewards and named metrics, even and odd counts of durations and none, no model, no task, two providers
     * of one harness and model (one cell, two combos), every verify status; the printed leaderboard
     * and task grid are the same text.
     */
    @Test
    void theMetricsFromTheDatabaseEqualTheOnesComputedFromTheResultFiles() throws Exception {
        ObjectMapper json = new ObjectMapper();
        java.util.List<Map<String, Object>> metas = new java.util.ArrayList<>();
        String[] verify = {"passed", "failed", null, "not-verified", "verifier-timeout", "passed"};
        String[] outcomes = {"completed", "completed", "error", "timeout", "completed", "no-op"};
        int i = 0;
        for (String harness : new String[] {"claude-code", "aider"}) {
            for (String provider : new String[] {"pa", "pb"}) {
                for (String model : new String[] {"m1", null}) {
                    for (String task : new String[] {"b1/t1", "b1/t2", null}) {
                        int trials = harness.equals("aider") && task != null ? 2 : 3;
                        for (int trial = 1; trial <= trials; trial++, i++) {
                            Map<String, Object> m = new LinkedHashMap<>();
                            m.put("schema_version", 1);
                            m.put("harness", harness);
                            m.put("provider", provider);
                            if (model != null) {
                                m.put("model", model);
                            }
                            if (task != null) {
                                m.put("task", task);
                            }
                            m.put("trial", trial);
                            m.put("outcome", outcomes[i % outcomes.length]);
                            if (i % 5 != 0) {
                                m.put("duration_ms", 1000L + (i * 7919L) % 5000);
                            }
                            if (i % 4 != 1) {
                                m.put("tokens", Map.of("input", 100 + i, "output", 10 + i, "source", "adapter"));
                            }
                            if (i % 3 != 2) {
                                m.put("cost", Map.of("usd", new BigDecimal(i % 2 == 0 ? "0.020000" : "0.01"),
                                        "source", i % 7 == 0 ? "meter" : "cli-estimate"));
                            }
                            String v = verify[(i / 2) % verify.length];
                            if (v != null) {
                                Map<String, Object> vm = new LinkedHashMap<>();
                                vm.put("status", v);
                                if (i % 2 == 0) {
                                    vm.put("reward", i % 4 == 0 ? 0.5 : 0.25);
                                }
                                if (i % 3 == 0) { // named metrics on some runs: means per metric over those
                                    vm.put("rewards", Map.of("tests", i % 2 == 0 ? 1.0 : 0.0, "lint", 0.5));
                                }
                                m.put("verify", vm);
                            }
                            metas.add(m);
                        }
                    }
                }
            }
        }
        queue.enqueue("b1", PgTesting.specs("h", "p", metas.size()), RetryPolicy.DEFAULT);
        for (int r = 0; r < metas.size(); r++) {
            Map<String, Object> m = metas.get(r);
            Path dir = resultDir(String.valueOf(m.getOrDefault("task", "none")), m.get("harness") + "__"
                    + m.get("provider") + "__" + m.getOrDefault("model", "default"), "run-" + r,
                    json.writeValueAsString(m));
            runOne(dir, Outcome.COMPLETED, ArtifactCaps.DEFAULT);
        }
        BenchSummary fromFiles = BenchSummary.read(state);
        assertThat(fromFiles.problems()).isEmpty();
        assertThat(fromFiles.rows()).hasSize(metas.size());
        BenchMetrics expected = BenchMetrics.of(fromFiles);
        BenchMetrics aggregated = results.metrics("b1");

        // pass@k averages and mean rewards are sums of doubles added in another order: equal up to rounding
        Comparator<Double> close = (a, b) -> Math.abs(a - b) < 1e-12 ? 0 : Double.compare(a, b);
        assertThat(aggregated.leaderboard()).usingRecursiveFieldByFieldElementComparator(
                RecursiveComparisonConfiguration.builder().withComparatorForType(close, Double.class).build())
                .containsExactlyElementsOf(expected.leaderboard());
        assertThat(aggregated.tasks()).usingRecursiveComparison().withComparatorForType(close, Double.class)
                .isEqualTo(expected.tasks());
        assertThat(aggregated.cells()).usingRecursiveComparison().withComparatorForType(close, Double.class)
                .isEqualTo(expected.cells());
        assertThat(aggregated.tasks().keySet()).containsExactlyElementsOf(expected.tasks().keySet()).contains("null");
        assertThat(SummaryFormat.leaderboard(aggregated)).isEqualTo(SummaryFormat.leaderboard(expected))
                .contains("measured)").contains("pass@3").contains("cli-estimate,meter").contains("rewards per metric");
        assertThat(SummaryFormat.taskGrid(aggregated)).isEqualTo(SummaryFormat.taskGrid(expected));
        assertThat(results.metrics("another-bench").leaderboard()).isEmpty();
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
    void materializeWritesTheStoredResultsAndRefusesADirectoryOutsideTheRoot() throws Exception {
        queue.enqueue("b", PgTesting.specs("h", "p", 1), RetryPolicy.DEFAULT);
        Path dir = resultDir("t", "h__scripted__m", "run-1", PgTesting.meta("h", "m", "t", "completed", 1, 5, 1, 0, null));
        Files.writeString(dir.resolve("diff.patch"), "+x\n");
        Files.writeString(dir.resolve("transcript.log"), "said hello\n");
        runOne(dir, Outcome.COMPLETED, ArtifactCaps.DEFAULT);
        Path root = state.resolve("elsewhere/results");
        assertThat(results.materialize("b", root)).isEqualTo(1);
        Path copy = root.resolve("t/h__scripted__m/run-1");
        assertThat(Files.readString(copy.resolve("diff.patch"))).isEqualTo("+x\n");
        assertThat(Files.readString(copy.resolve("transcript.log"))).isEqualTo("said hello\n");
        assertThat(Files.readString(copy.resolve("meta.json"))).contains("\"harness\": \"h\"");

        PgTesting.update(db, "INSERT INTO h4j_result (run_id, bench, dir, meta, harness, outcome, trial)"
                + " VALUES ('evil', 'evil', '../../escaped', '{}', 'h', 'completed', 1)");
        Path other = state.resolve("other/results");
        assertThatThrownBy(() -> results.materialize("evil", other)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'../../escaped' is not below");
        assertThat(state.resolve("escaped")).doesNotExist();
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
