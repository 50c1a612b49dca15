package dev.harness4j.bench;

import dev.harness4j.core.ResultIndex;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Map;
import java.util.TreeMap;

/**
 * The results of a bench, read from the {@code meta.json} of every run in a state dir (found by
 * its {@link ResultIndex}, one directory per run): one
 * {@link ResultRow} per readable result, one {@link MetaProblem} per missing, unreadable or
 * partial one (never an exception for a bad file), and {@link Totals} that count unmeasured
 * figures apart instead of as zero.
 *
 * <pre>{@code
 * BenchSummary s = BenchSummary.read(stateDir);
 * System.out.print(SummaryFormat.table(s));
 * HtmlReport.write(s, stateDir.resolve("report.html"));
 * }</pre>
 */
public final class BenchSummary {
    /** The meta.json schema version this reader understands. */
    public static final int SCHEMA_VERSION = 1;

    private final List<ResultRow> rows;
    private final List<MetaProblem> problems;

    public BenchSummary(List<ResultRow> rows, List<MetaProblem> problems) {
        this.rows = List.copyOf(rows);
        this.problems = List.copyOf(problems);
    }

    /** Reads every result in {@code <stateDir>/results}; an absent results directory is an empty summary. */
    public static BenchSummary read(Path stateDir) {
        return read(ResultIndex.of(stateDir));
    }

    /** Reads every result the index finds, in parallel, sorted by directory. */
    public static BenchSummary read(ResultIndex index) {
        Path resultsDir = index.resultsDir();
        List<Path> dirs = index.runDirs();
        List<Object> parsed = dirs.parallelStream().map(d -> readOne(resultsDir, d))
                .collect(java.util.stream.Collectors.toList());
        List<ResultRow> rows = new ArrayList<>();
        List<MetaProblem> problems = new ArrayList<>();
        for (Object o : parsed) {
            if (o instanceof ResultRow r) {
                rows.add(r);
            } else if (o != null) {
                problems.add((MetaProblem) o);
            }
        }
        return new BenchSummary(rows, problems);
    }

    private static Object readOne(Path resultsDir, Path dir) {
        String name = resultsDir.relativize(dir).toString();
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(dir.resolve("meta.json"));
        } catch (IOException e) {
            if (!Files.isDirectory(dir)) {
                return null; // a file next to the result directories (a report, say): not a result
            }
            return e instanceof NoSuchFileException ? new MetaProblem(name, MetaProblem.Kind.MISSING, "no meta.json")
                    : new MetaProblem(name, MetaProblem.Kind.UNREADABLE, e.toString());
        }
        MetaReader.Meta m;
        try {
            m = MetaReader.read(bytes);
        } catch (IOException e) {
            return new MetaProblem(name, MetaProblem.Kind.UNREADABLE, "not JSON: " + firstLine(e.getMessage()));
        }
        if (m.schemaVersion == null || m.schemaVersion != SCHEMA_VERSION) {
            return new MetaProblem(name, MetaProblem.Kind.PARTIAL, "schema_version " + m.schemaVersionText
                    + " (this reader understands " + SCHEMA_VERSION + ")");
        }
        if (m.harness == null || m.outcome == null) {
            return new MetaProblem(name, MetaProblem.Kind.PARTIAL, "missing "
                    + (m.harness == null ? "harness" : "") + (m.harness == null && m.outcome == null ? " and " : "")
                    + (m.outcome == null ? "outcome" : ""));
        }
        String branch = !m.branchPresent ? null : m.branchPushed ? m.branchName
                : "not pushed" + (m.branchError == null ? "" : ": " + m.branchError);
        return new ResultRow(name, m.harness, m.provider, m.model != null ? m.model : m.resolvedModel, m.task,
                m.outcome, m.reason, m.durationMs, m.filesChanged, m.insertions, m.deletions, m.tokensIn, m.tokensOut,
                m.tokenSource, m.costUsd, m.costSource, m.verdict, branch,
                m.trial == null || m.trial < 1 ? 1 : m.trial.intValue(), m.verifyStatus, m.reward, m.rewards);
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int i = s.indexOf('\n');
        return i < 0 ? s : s.substring(0, i);
    }

    public List<ResultRow> rows() {
        return rows;
    }

    public List<MetaProblem> problems() {
        return problems;
    }

    /** The results of one bench: rows whose task label is {@code <id>/<task id>}; problems are kept. */
    public BenchSummary forBench(String id) {
        Objects.requireNonNull(id, "id");
        String prefix = id + "/";
        return new BenchSummary(rows.stream().filter(r -> r.task() != null && r.task().startsWith(prefix)).toList(),
                problems);
    }

    /** The sums over every row. */
    public Totals totals() {
        Map<String, Integer> byOutcome = new TreeMap<>();
        long duration = 0;
        long in = 0;
        long out = 0;
        int inUnmeasured = 0;
        int outUnmeasured = 0;
        int costUnmeasured = 0;
        BigDecimal cost = BigDecimal.ZERO;
        for (ResultRow r : rows) {
            byOutcome.merge(r.outcome(), 1, Integer::sum);
            duration += r.durationMs() == null ? 0 : r.durationMs();
            if (r.tokensIn() == null) {
                inUnmeasured++;
            } else {
                in += r.tokensIn();
            }
            if (r.tokensOut() == null) {
                outUnmeasured++;
            } else {
                out += r.tokensOut();
            }
            if (r.costUsd() == null) {
                costUnmeasured++;
            } else {
                cost = cost.add(r.costUsd());
            }
        }
        return new Totals(rows.size(), byOutcome, duration, in, inUnmeasured, out, outUnmeasured, cost, costUnmeasured,
                problems.size());
    }

    /**
     * Sums over a summary's rows; each measured sum comes with the count of rows left out of it
     * because the figure was unmeasured.
     *
     * @param results readable results
     * @param byOutcome how many results per outcome
     * @param durationMs total wall time
     * @param tokensIn sum of measured input tokens
     * @param tokensInUnmeasured results whose input tokens were unmeasured
     * @param tokensOut sum of measured output tokens
     * @param tokensOutUnmeasured results whose output tokens were unmeasured
     * @param costUsd sum of measured costs
     * @param costUnmeasured results whose cost was unmeasured
     * @param problems results that could not be read
     */
    public record Totals(int results, Map<String, Integer> byOutcome, long durationMs, long tokensIn,
            int tokensInUnmeasured, long tokensOut, int tokensOutUnmeasured, BigDecimal costUsd, int costUnmeasured,
            int problems) {
        public Totals {
            byOutcome = java.util.Collections.unmodifiableMap(new TreeMap<>(byOutcome));
            Objects.requireNonNull(costUsd, "costUsd");
        }
    }
}
