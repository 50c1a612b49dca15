package dev.harness4j.bench;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * The bench a {@link Bench} compares itself with ({@link Bench.Builder#baseline}): a bench id,
 * in the bench's own state dir or in another one (a saved copy, say).
 *
 * @param benchId the baseline bench's id (its results are labelled {@code <benchId>/<task id>})
 * @param stateDir the state dir holding its results, or {@code null} for the bench's own
 */
public record BenchBaseline(String benchId, Path stateDir) {
    public BenchBaseline {
        Objects.requireNonNull(benchId, "benchId");
        if (benchId.isBlank()) {
            throw new IllegalArgumentException("benchId must not be blank");
        }
    }

    /** Bench {@code benchId} in the bench's own state dir. */
    public static BenchBaseline of(String benchId) {
        return new BenchBaseline(benchId, null);
    }

    /** The baseline's results; refused when there are none, or when it is the bench being run itself. */
    List<ResultRow> rows(Path ownStateDir, String runningBenchId) {
        Path dir = stateDir != null ? stateDir : ownStateDir;
        if (stateDir == null && benchId.equals(runningBenchId)) {
            throw new BenchPlanException(List.of("the baseline '" + benchId + "' is the bench being run: give another"
                    + " bench's id, or the state dir of a saved copy"));
        }
        List<ResultRow> rows = BenchSummary.read(dir).forBench(benchId).rows();
        if (rows.isEmpty()) {
            throw new BenchPlanException(List.of("the baseline bench '" + benchId + "' has no results in " + dir
                    + ": give a bench id that has results there (harness4j bench summary --state-dir " + dir
                    + " lists them)"));
        }
        return rows;
    }
}
