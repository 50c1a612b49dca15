package dev.harness4j.bench;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The figures of a group of runs (one combo, one task, or one task × combo cell). A figure no run
 * measured is {@code null}; each measured figure comes with how many runs measured it, never a 0
 * standing for "unknown".
 *
 * @param runs how many runs
 * @param passed how many passed ({@link ResultRow#passed()})
 * @param passRate {@code passed / runs}
 * @param passRateLow the 95% Wilson interval's lower bound
 * @param passRateHigh the 95% Wilson interval's upper bound
 * @param passAtK pass@k by k, the unbiased estimator {@code 1 - C(n-c, k) / C(n, k)} per task,
 *     averaged over the tasks; for k from 1 to the smallest number of trials of a task
 * @param meanReward the mean of the rewards verifiers wrote, or {@code null} when none did
 * @param rewardMeasured how many runs have a reward
 * @param medianDurationMs the median wall time, or {@code null} when no run measured it
 * @param tokensIn the sum of measured input tokens, or {@code null} when no run measured them
 * @param tokensOut the sum of measured output tokens, or {@code null}
 * @param tokensMeasured how many runs measured their tokens (input and output)
 * @param costUsd the sum of measured costs, or {@code null} when no run measured its cost
 * @param costMeasured how many runs measured their cost
 * @param costSources where the measured costs came from ({@code meter}, {@code adapter}, ...)
 * @param costPerPass {@code costUsd / passed} when every run measured its cost and one passed, else {@code null}
 * @param errorClasses why runs did not pass: the verification's status ({@code failed}, {@code
 *     verifier-timeout}, ...) or, for a run not verified, its outcome ({@code error}, ...), with counts
 * @param rewards per named metric the verifiers wrote ({@code verify.rewards}), its mean over the
 *     runs that wrote it and how many did, by name; empty when none wrote named metrics
 */
public record Metrics(
        int runs,
        int passed,
        double passRate,
        double passRateLow,
        double passRateHigh,
        Map<Integer, Double> passAtK,
        Double meanReward,
        int rewardMeasured,
        Long medianDurationMs,
        Long tokensIn,
        Long tokensOut,
        int tokensMeasured,
        BigDecimal costUsd,
        int costMeasured,
        Set<String> costSources,
        BigDecimal costPerPass,
        Map<String, Integer> errorClasses,
        Map<String, MetricMean> rewards) {
    /** The z of a two-sided 95% interval. */
    static final double Z95 = 1.959963984540054;

    public Metrics {
        passAtK = sortedCopy(passAtK);
        costSources = costSources.size() <= 1 ? Set.copyOf(costSources) // no order to keep; a bench has a cell per run
                : Collections.unmodifiableSet(new TreeSet<>(costSources));
        errorClasses = sortedCopy(errorClasses);
        rewards = sortedCopy(rewards);
    }

    /** Figures without named metrics. */
    public Metrics(int runs, int passed, double passRate, double passRateLow, double passRateHigh,
            Map<Integer, Double> passAtK, Double meanReward, int rewardMeasured, Long medianDurationMs, Long tokensIn,
            Long tokensOut, int tokensMeasured, BigDecimal costUsd, int costMeasured, Set<String> costSources,
            BigDecimal costPerPass, Map<String, Integer> errorClasses) {
        this(runs, passed, passRate, passRateLow, passRateHigh, passAtK, meanReward, rewardMeasured, medianDurationMs,
                tokensIn, tokensOut, tokensMeasured, costUsd, costMeasured, costSources, costPerPass, errorClasses,
                Map.of());
    }

    /**
     * One named metric over a group of runs.
     *
     * @param mean its mean over the runs that wrote it
     * @param measured how many runs wrote it
     */
    public record MetricMean(double mean, int measured) {
        public MetricMean {
            if (measured < 1) {
                throw new IllegalArgumentException("a metric's mean needs a run that wrote it, measured was " + measured);
            }
        }
    }

    /**
     * One named metric's sum over a group of runs, as a database can aggregate it.
     *
     * @param sum the sum of its values
     * @param measured how many runs wrote it
     */
    public record MetricSum(double sum, int measured) {
        public MetricSum {
            if (measured < 1) {
                throw new IllegalArgumentException("a metric's sum needs a run that wrote it, measured was " + measured);
            }
        }

        MetricSum plus(double value) {
            return new MetricSum(sum + value, measured + 1);
        }
    }

    /**
     * An unmodifiable copy iterating in key order; one of at most one entry without a tree (a
     * bench of one run per cell builds a {@link Metrics} per run: its size counts).
     */
    private static <K extends Comparable<K>, V> Map<K, V> sortedCopy(Map<K, V> m) {
        if (m.size() > 1) {
            return Collections.unmodifiableMap(new TreeMap<>(m));
        }
        return Map.copyOf(m); // the same map when it is already an unmodifiable Map.of
    }

    /** The figures of these runs. */
    public static Metrics of(List<ResultRow> rows) {
        Objects.requireNonNull(rows, "rows");
        int n = rows.size();
        int passed = 0;
        double rewardSum = 0;
        int rewards = 0;
        List<Long> durations = new ArrayList<>();
        long in = 0;
        long out = 0;
        int tokens = 0;
        BigDecimal cost = BigDecimal.ZERO;
        int costs = 0;
        Set<String> sources = new TreeSet<>();
        Map<String, Integer> errors = new TreeMap<>();
        Map<String, int[]> byTask = new LinkedHashMap<>();
        Map<String, MetricSum> metrics = new TreeMap<>();
        for (ResultRow r : rows) {
            r.rewards().forEach((name, v) -> metrics.merge(name, new MetricSum(v, 1),
                    (a, b) -> a.plus(b.sum())));
            boolean pass = r.passed();
            int[] tc = byTask.computeIfAbsent(String.valueOf(r.task()), k -> new int[2]);
            tc[0]++;
            if (pass) {
                passed++;
                tc[1]++;
            } else {
                errors.merge(errorClass(r.verifyStatus(), r.outcome()), 1, Integer::sum);
            }
            if (r.reward() != null) {
                rewardSum += r.reward();
                rewards++;
            }
            if (r.durationMs() != null) {
                durations.add(r.durationMs());
            }
            if (r.tokensIn() != null && r.tokensOut() != null) {
                in += r.tokensIn();
                out += r.tokensOut();
                tokens++;
            }
            if (r.costUsd() != null) {
                cost = cost.add(r.costUsd());
                costs++;
                if (r.costSource() != null) {
                    sources.add(r.costSource());
                }
            }
        }
        Collections.sort(durations);
        Long median = durations.isEmpty() ? null
                : median(durations.get((durations.size() - 1) / 2), durations.get(durations.size() / 2));
        return of(new Tally(n, passed, new ArrayList<>(byTask.values()), rewardSum, rewards, median, in, out, tokens, cost,
                costs, sources, errors, metrics));
    }

    /**
     * What {@link Metrics} are computed from: counts and sums over a group of runs, as a database
     * can aggregate them without handing over every run.
     *
     * @param runs how many runs
     * @param passed how many passed
     * @param tasks per task of the group, {@code {trials, passed}} (for pass@k)
     * @param rewardSum the sum of the rewards written
     * @param rewards how many runs have a reward
     * @param medianDurationMs the median wall time ({@link #median}), or {@code null} when none was measured
     * @param tokensIn the sum of input tokens of the runs that measured both input and output
     * @param tokensOut the sum of output tokens of the same runs
     * @param tokensMeasured how many runs measured both
     * @param costUsd the sum of measured costs
     * @param costMeasured how many runs measured their cost
     * @param costSources the sources of the measured costs
     * @param errorClasses why runs did not pass ({@link #errorClass}), with counts
     * @param metricSums per named metric, its sum and how many runs wrote it
     */
    public record Tally(int runs, int passed, List<int[]> tasks, double rewardSum, int rewards, Long medianDurationMs,
            long tokensIn, long tokensOut, int tokensMeasured, BigDecimal costUsd, int costMeasured,
            Set<String> costSources, Map<String, Integer> errorClasses, Map<String, MetricSum> metricSums) {
        public Tally {
            tasks = List.copyOf(tasks);
            Objects.requireNonNull(costUsd, "costUsd");
            costSources = Set.copyOf(costSources);
            errorClasses = Map.copyOf(errorClasses);
            metricSums = Map.copyOf(metricSums);
        }

        /** A tally without named metrics. */
        public Tally(int runs, int passed, List<int[]> tasks, double rewardSum, int rewards, Long medianDurationMs,
                long tokensIn, long tokensOut, int tokensMeasured, BigDecimal costUsd, int costMeasured,
                Set<String> costSources, Map<String, Integer> errorClasses) {
            this(runs, passed, tasks, rewardSum, rewards, medianDurationMs, tokensIn, tokensOut, tokensMeasured, costUsd,
                    costMeasured, costSources, errorClasses, Map.of());
        }
    }

    /** The figures of a group of runs from its {@link Tally}: the same as {@link #of(List)} on its rows. */
    public static Metrics of(Tally t) {
        int n = t.runs();
        int passed = t.passed();
        double[] wilson = wilson(passed, n);
        BigDecimal costPerPass = t.costMeasured() == n && passed > 0
                ? t.costUsd().divide(BigDecimal.valueOf(passed), 6, RoundingMode.HALF_UP) : null;
        int tokens = t.tokensMeasured();
        return new Metrics(n, passed, n == 0 ? 0 : (double) passed / n, wilson[0], wilson[1], passAtK(t.tasks()),
                t.rewards() == 0 ? null : t.rewardSum() / t.rewards(), t.rewards(), t.medianDurationMs(),
                tokens == 0 ? null : t.tokensIn(), tokens == 0 ? null : t.tokensOut(), tokens,
                t.costMeasured() == 0 ? null : t.costUsd(), t.costMeasured(), t.costSources(), costPerPass,
                t.errorClasses(), means(t.metricSums()));
    }

    private static Map<String, MetricMean> means(Map<String, MetricSum> sums) {
        if (sums.isEmpty()) {
            return Map.of();
        }
        Map<String, MetricMean> out = new TreeMap<>();
        sums.forEach((name, s) -> out.put(name, new MetricMean(s.sum() / s.measured(), s.measured())));
        return out;
    }

    /**
     * The median of sorted values from its two middle values (the same one for an odd count):
     * their mean, rounded toward zero.
     */
    public static long median(long lowerMiddle, long upperMiddle) {
        return (lowerMiddle + upperMiddle) / 2;
    }

    /**
     * Why a run that did not pass failed: its verification's status, or its outcome when it was not
     * verified.
     */
    public static String errorClass(String verifyStatus, String outcome) {
        return verifyStatus != null && !verifyStatus.equals(VerifyStatus.NOT_VERIFIED.wireName()) ? verifyStatus : outcome;
    }

    /** The 95% Wilson score interval of {@code passed} successes in {@code n} trials; [0, 1] for none. */
    public static double[] wilson(int passed, int n) {
        if (n == 0) {
            return new double[] {0, 1};
        }
        double p = (double) passed / n;
        double z2 = Z95 * Z95;
        double denom = 1 + z2 / n;
        double center = (p + z2 / (2.0 * n)) / denom;
        double half = Z95 * Math.sqrt(p * (1 - p) / n + z2 / (4.0 * n * n)) / denom;
        return new double[] {Math.max(0, center - half), Math.min(1, center + half)};
    }

    /** The unbiased pass@k of one task with {@code n} trials of which {@code c} passed: {@code 1 - C(n-c, k) / C(n, k)}. */
    public static double passAtK(int n, int c, int k) {
        if (k < 1 || k > n) {
            throw new IllegalArgumentException("k must be in 1.." + n + ", was " + k);
        }
        if (n - c < k) {
            return 1.0;
        }
        double ratio = 1.0; // C(n-c, k) / C(n, k) = prod_{i=n-c+1..n} (1 - k / i)
        for (int i = n - c + 1; i <= n; i++) {
            ratio *= 1.0 - (double) k / i;
        }
        return 1.0 - ratio;
    }

    private static Map<Integer, Double> passAtK(java.util.Collection<int[]> tasks) {
        if (tasks.size() == 1) { // a task or a cell: no tree for its one or few entries
            int[] t = tasks.iterator().next();
            return t[0] == 1 ? Map.of(1, passAtK(1, t[1], 1)) : passAtKOf(tasks);
        }
        return passAtKOf(tasks);
    }

    private static Map<Integer, Double> passAtKOf(java.util.Collection<int[]> tasks) {
        Map<Integer, Double> out = new TreeMap<>();
        int minTrials = tasks.stream().mapToInt(t -> t[0]).min().orElse(0);
        for (int k = 1; k <= minTrials; k++) {
            double sum = 0;
            for (int[] t : tasks) {
                sum += passAtK(t[0], t[1], k);
            }
            out.put(k, sum / tasks.size());
        }
        return out;
    }
}
