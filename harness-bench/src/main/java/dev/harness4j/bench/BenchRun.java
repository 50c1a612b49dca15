package dev.harness4j.bench;

import dev.harness4j.core.queue.QueueEntry;
import dev.harness4j.core.queue.QueueProcessor;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * What one {@link Bench#run} did.
 *
 * @param queued the entries this bench queued (combos with a result or a queue entry were skipped)
 * @param processed what the queue processor did (entries left from earlier benches included)
 * @param summary every result in the state dir
 * @param report the HTML report
 * @param metrics the metrics of this bench's tasks (every result's when the plan has no task labels)
 * @param comparison this bench compared with the {@linkplain Bench.Builder#baseline baseline}, or {@code null}
 *     without one
 */
public record BenchRun(List<QueueEntry> queued, QueueProcessor.Summary processed, BenchSummary summary, Path report,
        BenchMetrics metrics, BenchComparison comparison) {
    public BenchRun {
        queued = List.copyOf(queued);
        Objects.requireNonNull(processed, "processed");
        Objects.requireNonNull(summary, "summary");
        Objects.requireNonNull(report, "report");
        Objects.requireNonNull(metrics, "metrics");
    }
}
