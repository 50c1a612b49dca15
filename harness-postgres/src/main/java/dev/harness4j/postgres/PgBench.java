package dev.harness4j.postgres;

import dev.harness4j.api.RunSpec;
import dev.harness4j.bench.BenchPlan;
import dev.harness4j.bench.Combo;
import dev.harness4j.core.queue.RetryPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Benches on the shared queue: a {@link BenchPlan} (built and validated as for a local bench)
 * queued into {@link PgQueue} for workers on any machine to run. Planning the same bench again,
 * here or on another machine, queues only the runs not queued before.
 *
 * <pre>{@code
 * BenchPlan plan = BenchPlan.builder(runner).suite(TaskSuite.load(dir)).harnesses("claude-code", "aider")
 *         .provider("anthropic").trials(3).build();
 * PgBench.Queued q = PgBench.enqueue(plan, new PgQueue(db), RetryPolicy.DEFAULT);
 * // then: PgWorker on each machine; new PgResults(db).summary(plan.id().orElse(null))
 * }</pre>
 */
public final class PgBench {
    private PgBench() {}

    /**
     * What {@link #enqueue} did.
     *
     * @param bench the bench id the entries carry, or {@code null}
     * @param planned the runs in the plan
     * @param added the ids of the entries added now
     */
    public record Queued(String bench, int planned, List<String> added) {
        public Queued {
            added = List.copyOf(added);
        }
    }

    /** Queues every run of the plan under the plan's bench id. */
    public static Queued enqueue(BenchPlan plan, PgQueue queue, RetryPolicy retry) {
        Objects.requireNonNull(plan, "plan");
        List<RunSpec> specs = new ArrayList<>();
        for (Combo c : plan.combos()) {
            specs.add(plan.spec(c));
        }
        String bench = plan.id().orElse(null);
        return new Queued(bench, specs.size(), queue.enqueue(bench, specs, retry));
    }
}
