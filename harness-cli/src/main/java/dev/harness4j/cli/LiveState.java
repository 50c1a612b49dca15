package dev.harness4j.cli;

import dev.harness4j.bench.BenchSummary;
import dev.harness4j.bench.ResultRow;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * What {@code harness4j serve} reads while benches run elsewhere, never writing a result: a file
 * state dir ({@link LiveFiles}) or the shared PostgreSQL database ({@link LiveDatabase}). The
 * pages ({@link LivePages}, {@link LiveRunPage}) and the event streams read only through it.
 */
interface LiveState extends AutoCloseable {
    /** The ids this view accepts in a URL (run ids, bench ids). */
    Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");

    /**
     * One queue entry, as much of it as the pages show.
     *
     * @param updatedAt when the running attempt started or the entry last changed
     * @param worker the worker running it (another machine's), or {@code null} for this state dir's
     */
    record Entry(String id, String state, String runId, String task, String harness, String model, int trial,
            int attempts, Instant updatedAt, Instant notBefore, String lastOutcome, Long maxTokens, String maxCost,
            String worker) {
        String bench() {
            return LiveState.bench(task);
        }
    }

    /** The bench of a task label {@code <bench>/<task>}, or {@code default}. */
    static String bench(String task) {
        int i = task == null ? -1 : task.indexOf('/');
        return i > 0 ? task.substring(0, i) : "default";
    }

    /** The run id of a result row (its directory's last name). */
    static String runId(ResultRow r) {
        return Path.of(r.dir()).getFileName().toString();
    }

    /** What is served, for the pages' headers: {@code state dir: …} or {@code database: …}. */
    String where();

    /** Every queue entry, pending and finished. */
    List<Entry> entries();

    default List<Entry> entries(String bench) {
        return entries().stream().filter(e -> e.bench().equals(bench)).toList();
    }

    /** Every result. */
    BenchSummary summary();

    /** The benches named by the queue or the results, sorted. */
    default TreeSet<String> benches(List<Entry> entries, BenchSummary summary) {
        TreeSet<String> ids = new TreeSet<>();
        entries.forEach(e -> ids.add(e.bench()));
        summary.rows().forEach(r -> ids.add(bench(r.task())));
        return ids;
    }

    /** The result directory of a run (a read-only copy for a database), when it has a result. */
    Optional<Path> resultDir(String runId);

    /** Where a running run's output grows, when this machine can read it. */
    Optional<Path> liveIo(String runId);

    /** A value that changes when the queue or the results change; cheap. */
    String fingerprint();

    /** The {@code bench compare} text of two benches; IllegalArgumentException when one has no results. */
    String compare(String bench, String baseline);

    /** The directory of a bench's static report, when this view has one. */
    Optional<Path> reportDir(String bench);

    /** Why the bail buttons cannot work here, or empty when they can. */
    Optional<String> noBail();

    /** Asks the process running {@code runId} to bail it. */
    void bailRun(String runId) throws java.io.IOException;

    /** Asks the process running {@code bench} to bail it. */
    void bailBench(String bench) throws java.io.IOException;

    @Override
    void close();
}
