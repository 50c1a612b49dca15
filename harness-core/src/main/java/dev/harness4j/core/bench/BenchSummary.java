package dev.harness4j.core.bench;

import dev.harness4j.api.HarnessException;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The results of a bench, read from every {@code <stateDir>/results/*}{@code /meta.json}: one
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

    /** Reads {@code <stateDir>/results}; an absent results directory is an empty summary. */
    public static BenchSummary read(Path stateDir) {
        return readResults(stateDir.resolve("results"));
    }

    /** Reads every sub-directory of {@code resultsDir}, in parallel, sorted by directory name. */
    public static BenchSummary readResults(Path resultsDir) {
        List<Path> dirs = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(resultsDir, p -> !p.getFileName().toString().startsWith("."))) {
            ds.forEach(dirs::add);
        } catch (NoSuchFileException e) {
            return new BenchSummary(List.of(), List.of());
        } catch (IOException e) {
            throw new HarnessException("cannot list the results directory " + resultsDir + ": " + e.getMessage(), e);
        }
        dirs.sort(Comparator.comparing(p -> p.getFileName().toString()));
        List<Object> parsed = dirs.parallelStream().map(BenchSummary::readOne).collect(java.util.stream.Collectors.toList());
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

    private static Object readOne(Path dir) {
        String name = dir.getFileName().toString();
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
        Map<String, Object> n;
        try {
            n = MetaReader.scalars(bytes);
        } catch (IOException e) {
            return new MetaProblem(name, MetaProblem.Kind.UNREADABLE, "not JSON: " + firstLine(e.getMessage()));
        }
        Long version = MetaReader.number(n, "schema_version");
        if (version == null || version != SCHEMA_VERSION) {
            return new MetaProblem(name, MetaProblem.Kind.PARTIAL, "schema_version " + n.get("schema_version")
                    + " (this reader understands " + SCHEMA_VERSION + ")");
        }
        String harness = MetaReader.text(n, "harness");
        String outcome = MetaReader.text(n, "outcome");
        if (harness == null || outcome == null) {
            return new MetaProblem(name, MetaProblem.Kind.PARTIAL, "missing "
                    + (harness == null ? "harness" : "") + (harness == null && outcome == null ? " and " : "")
                    + (outcome == null ? "outcome" : ""));
        }
        String model = MetaReader.text(n, "model") != null ? MetaReader.text(n, "model") : MetaReader.text(n, "resolved_model");
        return new ResultRow(name, harness, MetaReader.text(n, "provider"), model, MetaReader.text(n, "task"), outcome,
                MetaReader.text(n, "reason"), MetaReader.number(n, "duration_ms"),
                MetaReader.number(n, "changes.files_changed"), MetaReader.number(n, "changes.insertions"),
                MetaReader.number(n, "changes.deletions"), MetaReader.number(n, "tokens.input"),
                MetaReader.number(n, "tokens.output"), MetaReader.text(n, "tokens.source"),
                MetaReader.decimal(n, "cost.usd"), MetaReader.text(n, "cost.source"),
                MetaReader.text(n, "served_model.verdict"), branch(n));
    }

    private static String branch(Map<String, Object> n) {
        if (n.get("branch") == null) {
            return null;
        }
        if (Boolean.TRUE.equals(n.get("branch.pushed"))) {
            return MetaReader.text(n, "branch.name");
        }
        String err = MetaReader.text(n, "branch.error");
        return "not pushed" + (err == null ? "" : ": " + err);
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
