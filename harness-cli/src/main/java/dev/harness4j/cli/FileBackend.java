package dev.harness4j.cli;

import dev.harness4j.bench.Bench;
import dev.harness4j.bench.BenchComparison;
import dev.harness4j.bench.BenchMetrics;
import dev.harness4j.bench.BenchPlan;
import dev.harness4j.bench.BenchReport;
import dev.harness4j.bench.BenchRun;
import dev.harness4j.bench.BenchSummary;
import dev.harness4j.core.ResultIndex;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The state dir's files as a bench's backend: {@code bench run} runs the plan in this JVM (its
 * plan header and summary say how the runs were confined: {@link SandboxNotice}); the other
 * commands read {@code <state-dir>/results}.
 */
final class FileBackend implements BenchBackend {
    private final Path stateDir;

    FileBackend(Path stateDir) {
        this.stateDir = stateDir;
    }

    @Override
    public void checkForce(boolean force) {
        // the files run again whatever --force asks for
    }

    @Override
    public int run(Bench bench, BenchPlan plan, PrintWriter out) throws InterruptedException {
        BenchRun r = SandboxNotice.run(bench, plan, out::println);
        boolean ok = r.processed().failed() == 0 && r.processed().interrupted() == 0;
        return ok ? Harness4j.OK : Harness4j.FAILED;
    }

    @Override
    public BenchSummary summary(String id) {
        BenchSummary all = BenchSummary.read(ResultIndex.of(stateDir));
        return id == null ? all : all.forBench(id);
    }

    @Override
    public BenchMetrics metrics(String id) {
        return BenchMetrics.of(summary(id));
    }

    @Override
    public BenchComparison compare(String id, String baseline, Path baselineStateDir) {
        BenchSummary now = summary(id);
        BenchSummary before = BenchSummary.read(ResultIndex.of(baselineStateDir != null ? baselineStateDir : stateDir))
                .forBench(baseline);
        if (now.rows().isEmpty() || before.rows().isEmpty()) {
            throw BenchBackend.noResults(now.rows().isEmpty() ? id : baseline, "");
        }
        return BenchComparison.of(before.rows(), now.rows());
    }

    @Override
    public void report(String id, String baseline, Path dir, PrintWriter out) throws IOException {
        ResultIndex index = ResultIndex.of(stateDir);
        BenchSummary all = BenchSummary.read(index);
        BenchSummary s = id != null ? all.forBench(id) : all;
        BenchComparison c = baseline == null ? null : BenchComparison.of(all.forBench(baseline).rows(), s.rows());
        Files.createDirectories(dir);
        out.println("report: " + BenchReport.write(index.resultsDir(), s.rows(), BenchMetrics.of(s), c, dir));
    }

    @Override
    public void close() {
        // nothing open
    }
}
