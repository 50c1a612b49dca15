package dev.harness4j.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.SandboxNetwork;
import dev.harness4j.bench.Bench;
import dev.harness4j.bench.BenchPlan;
import dev.harness4j.bench.BenchRun;
import dev.harness4j.bench.BenchSummary;
import dev.harness4j.bench.ResultRow;
import dev.harness4j.core.ResultIndex;
import dev.harness4j.core.stages.SandboxStage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * What a bench says about its sandbox, for a runner with the default one ({@code Sandbox.AUTO},
 * network {@code METER_ONLY}): the plan header's line, how its runs will be confined ({@link
 * #header()}: bubblewrap is probed once), and the summary's warning when some of its runs were
 * not ({@link #warning}: read from each result's {@code meta.json} {@code sandbox.mode}). The
 * {@code harness4j} command's {@code bench run} prints both; so does a program that runs a {@code
 * Bench} itself through {@link #run}:
 *
 * <pre>{@code
 * BenchRun r = SandboxNotice.run(bench, plan, System.out::println);   // header, bench.run(plan), warning
 * }</pre>
 */
public final class SandboxNotice {
    /** The header's line when the runs will be confined: {@value}. */
    public static final String CONFINED = "sandbox: bubblewrap, network: meter only";

    private static final String FIX = "install bubblewrap and perl (Debian: apt-get install bubblewrap perl-base;"
            + " from a checkout: bash scripts/install-sandbox.sh)";

    private SandboxNotice() {}

    /**
     * {@value #CONFINED}, or {@code sandbox: OFF (<why>) — agents run with your full user rights}
     * when bubblewrap (or perl) cannot confine a run on this machine.
     */
    public static String header() {
        return header(problem());
    }

    static String header(Optional<String> problem) {
        return problem.map(why -> "sandbox: OFF (" + why + ") — agents run with your full user rights")
                .orElse(CONFINED);
    }

    /** Why a runner with the default sandbox would run unconfined here, or empty when it confines. */
    static Optional<String> problem() {
        try (SandboxStage stage = SandboxStage.builder().build()) { // the runner's default, probed the runner's way
            return stage.problem(true, SandboxNetwork.METER_ONLY);
        }
    }

    /**
     * Runs the plan on the bench ({@link Bench#run}), printing the {@link #header()} before it (in
     * front of the plan) and the {@link #warning} after its summary when some run was unconfined.
     */
    public static BenchRun run(Bench bench, BenchPlan plan, Consumer<String> println) throws InterruptedException {
        println.accept(header());
        BenchRun r = bench.run(plan);
        warning(ResultIndex.of(bench.stateDir()).resultsDir(), rowsOf(plan, r.summary())).ifPresent(println);
        return r;
    }

    /** The rows of the plan's tasks ({@link BenchPlan#labels()}; every row when it has none). */
    static List<ResultRow> rowsOf(BenchPlan plan, BenchSummary summary) {
        return plan.labels().isEmpty() ? summary.rows()
                : summary.rows().stream().filter(r -> plan.labels().contains(r.task())).toList();
    }

    /**
     * A warning naming how many of these results ran unconfined ({@code meta.json}'s {@code
     * sandbox.mode} {@code unconfined} or {@code off}) and why, or empty when none did. A result
     * without a {@code sandbox} section (or an unreadable one) is not counted.
     *
     * @param resultsDir the state dir's {@code results/}, which {@link ResultRow#dir()} is relative to
     */
    public static Optional<String> warning(Path resultsDir, List<ResultRow> rows) {
        ObjectMapper json = new ObjectMapper();
        int unconfined = 0;
        Set<String> reasons = new LinkedHashSet<>();
        for (ResultRow r : rows) {
            JsonNode sandbox = sandbox(json, resultsDir.resolve(r.dir()).resolve("meta.json"));
            String mode = sandbox.path("mode").asText("");
            if (mode.equals("unconfined") || mode.equals("off")) {
                unconfined++;
                reasons.add(mode.equals("off") ? "the sandbox was off" : sandbox.path("reason").asText("no reason given"));
            }
        }
        if (unconfined == 0) {
            return Optional.empty();
        }
        return Optional.of("WARNING: " + unconfined + " of " + rows.size() + " runs ran unconfined, the agents with"
                + " your full user rights (" + String.join("; ", reasons) + "). To confine them, " + FIX + ".");
    }

    private static JsonNode sandbox(ObjectMapper json, Path meta) {
        try {
            return json.readTree(meta.toFile()).path("sandbox");
        } catch (IOException | RuntimeException e) {
            return json.missingNode();
        }
    }
}
