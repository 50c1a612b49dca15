package dev.harness4j.bench;

import dev.harness4j.core.RunRecord;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * What a {@link SuiteCheck} found: each task's verdicts under {@code nop} and {@code oracle}, and
 * the {@link Finding}s they make, broken tasks first.
 *
 * <pre>{@code
 * SuiteCheckReport r = check.check(suite);
 * r.findings().stream().filter(f -> f.kind().broken()).forEach(f -> System.err.println(f.text()));
 * }</pre>
 *
 * @param suite the suite's id
 * @param benchId the bench id the check's results are kept under
 * @param tasks one entry per task, in the suite's order
 */
public record SuiteCheckReport(String suite, String benchId, List<TaskCheck> tasks) {
    public SuiteCheckReport {
        Objects.requireNonNull(suite, "suite");
        Objects.requireNonNull(benchId, "benchId");
        tasks = List.copyOf(tasks);
    }

    /** What is wrong with a task. */
    public enum Kind {
        /** The verifier passes on {@code nop}: it accepts a task nobody solved. */
        ACCEPTS_UNTOUCHED("verifier accepts the untouched repository", true),
        /** The verifier does not pass on {@code oracle}, or the reference solution itself fails. */
        SOLUTION_FAILS("reference solution does not pass", true),
        /** The oracle's runs got different verdicts. */
        NON_DETERMINISTIC("non-deterministic: the oracle's runs got different verdicts", true),
        /** The task has no verifier, so no run of it can pass or fail. */
        NO_VERIFIER("no verifier: no run of it can pass or fail", true),
        /** The task has no reference solution: its verifier is not checked against a correct answer (a warning). */
        NO_SOLUTION("no reference solution (warning: the verifier is not checked against a correct answer; add"
                + " \"solution\" to task.json, or solution/solve.sh to a Harbor task)", false);

        private final String text;
        private final boolean broken;

        Kind(String text, boolean broken) {
            this.text = text;
            this.broken = broken;
        }

        /** The finding in words. */
        public String text() {
            return text;
        }

        /** Whether it makes the task broken (every kind but {@link #NO_SOLUTION}, a warning). */
        public boolean broken() {
            return broken;
        }
    }

    /**
     * One finding about one task.
     *
     * @param task the task's id
     * @param kind what is wrong
     * @param detail the verdicts and reasons behind it
     */
    public record Finding(String task, Kind kind, String detail) {
        public Finding {
            Objects.requireNonNull(task, "task");
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(detail, "detail");
        }

        /** {@code task X: <what is wrong> (<detail>)}. */
        public String text() {
            return "task " + task + ": " + kind.text() + (detail.isEmpty() ? "" : " (" + detail + ")");
        }
    }

    /**
     * One run's verdict.
     *
     * @param outcome the run's outcome ({@code completed}, {@code error}, ...)
     * @param reason why the run ended so, or {@code null}
     * @param verify the verifier's status ({@code passed}, {@code failed}, {@code not-verified},
     *     ...), or {@code null} when the task has no verifier
     * @param verifyReason the verifier's reason, or {@code null}
     * @param resultDir the run's result directory
     */
    public record Verdict(String outcome, String reason, String verify, String verifyReason, Path resultDir) {
        static Verdict of(RunRecord r) {
            Object section = r.sections().get(Verification.SECTION);
            String status = null;
            String why = null;
            if (section instanceof Map<?, ?> m) {
                status = m.get("status") == null ? null : String.valueOf(m.get("status"));
                why = m.get("reason") == null ? null : String.valueOf(m.get("reason"));
            }
            return new Verdict(r.result().outcome().wireName(), r.result().reason(), status, why, r.resultDir());
        }

        /** Whether the verifier passed. */
        public boolean passed() {
            return VerifyStatus.PASSED.wireName().equals(verify);
        }

        /** The verifier's status, or the run's outcome when the run was not verified, with the reason. */
        public String describe() {
            String s = verify == null ? "no verifier" : verify;
            if (VerifyStatus.NOT_VERIFIED.wireName().equals(verify)) {
                s += ", run ended " + outcome + (reason == null ? "" : ": " + oneLine(reason));
            } else if (verifyReason != null) {
                s += ": " + oneLine(verifyReason);
            }
            return s;
        }
    }

    /**
     * One task's verdicts.
     *
     * @param task the task's id
     * @param verified whether the task has a verifier
     * @param nop the {@code nop} run's verdict
     * @param oracle the {@code oracle} runs' verdicts (none without a reference solution)
     */
    public record TaskCheck(String task, boolean verified, Verdict nop, List<Verdict> oracle) {
        public TaskCheck {
            Objects.requireNonNull(task, "task");
            oracle = List.copyOf(oracle);
        }

        /** What this task's verdicts make of it, broken findings first. */
        public List<Finding> findings() {
            List<Finding> out = new ArrayList<>();
            if (!verified) {
                out.add(new Finding(task, Kind.NO_VERIFIER, ""));
                return out;
            }
            if (nop != null && nop.passed()) {
                out.add(new Finding(task, Kind.ACCEPTS_UNTOUCHED, "nop: " + nop.describe()));
            }
            if (!oracle.isEmpty()) {
                long passed = oracle.stream().filter(Verdict::passed).count();
                String verdicts = "oracle: " + String.join("; ", oracle.stream().map(Verdict::describe).toList());
                if (passed > 0 && passed < oracle.size()) {
                    out.add(new Finding(task, Kind.NON_DETERMINISTIC, verdicts));
                } else if (passed == 0) {
                    out.add(new Finding(task, Kind.SOLUTION_FAILS, verdicts));
                }
            } else {
                out.add(new Finding(task, Kind.NO_SOLUTION, ""));
            }
            return out;
        }

        /** Whether any finding of this task is broken. */
        public boolean broken() {
            return findings().stream().anyMatch(f -> f.kind().broken());
        }
    }

    /** Every finding, broken ones first, then warnings, each in task order. */
    public List<Finding> findings() {
        List<Finding> all = new ArrayList<>();
        tasks.forEach(t -> all.addAll(t.findings()));
        List<Finding> sorted = new ArrayList<>(all.stream().filter(f -> f.kind().broken()).toList());
        sorted.addAll(all.stream().filter(f -> !f.kind().broken()).toList());
        return sorted;
    }

    /** The ids of the broken tasks, in the suite's order. */
    public List<String> brokenTasks() {
        return tasks.stream().filter(TaskCheck::broken).map(TaskCheck::task).toList();
    }

    /** Whether any task is broken (a task without a reference solution alone is not). */
    public boolean broken() {
        return !brokenTasks().isEmpty();
    }

    /** The report as text: one line per task, then the broken tasks and the warnings, then the verdict. */
    public String text() {
        StringBuilder sb = new StringBuilder();
        sb.append("suite check of ").append(suite).append(": ").append(tasks.size()).append(tasks.size() == 1 ? " task" : " tasks")
                .append(", nop once and oracle ").append(SuiteCheck.ORACLE_RUNS).append(" times each (results: bench ")
                .append(benchId).append(")\n");
        int w = tasks.stream().mapToInt(t -> t.task().length()).max().orElse(4);
        for (TaskCheck t : tasks) {
            sb.append(String.format(Locale.ROOT, "  %-" + w + "s  nop: %-12s oracle: %-22s %s%n", t.task(),
                    t.nop() == null ? "-" : status(t.nop()),
                    t.oracle().isEmpty() ? "-" : String.join(", ", t.oracle().stream().map(SuiteCheckReport::status).toList()),
                    t.broken() ? "BROKEN" : t.findings().isEmpty() ? "ok" : "warning"));
        }
        List<Finding> broken = findings().stream().filter(f -> f.kind().broken()).toList();
        List<Finding> warnings = findings().stream().filter(f -> !f.kind().broken()).toList();
        if (!broken.isEmpty()) {
            sb.append("broken tasks (").append(brokenTasks().size()).append("):\n");
            broken.forEach(f -> sb.append("  ").append(f.text()).append('\n'));
        }
        if (!warnings.isEmpty()) {
            sb.append("warnings (").append(warnings.size()).append("):\n");
            warnings.forEach(f -> sb.append("  ").append(f.text()).append('\n'));
        }
        long unsolved = warnings.stream().filter(f -> f.kind() == Kind.NO_SOLUTION).count();
        sb.append(broken() ? "suite check FAILED: " + brokenTasks().size() + " of " + tasks.size() + " tasks broken: "
                + String.join(", ", brokenTasks()) : "suite check passed: every verifier rejects the untouched repository"
                + (unsolved == 0 ? " and accepts the reference solution, every time"
                        : "; " + unsolved + " of " + tasks.size() + " tasks have no reference solution to check it with"))
                .append('\n');
        return sb.toString();
    }

    private static String status(Verdict v) {
        return v.verify() == null ? "-" : VerifyStatus.NOT_VERIFIED.wireName().equals(v.verify()) ? v.outcome() : v.verify();
    }

    private static String oneLine(String s) {
        String t = s.strip().replace('\n', ' ');
        return t.length() > 300 ? t.substring(0, 300) + "…" : t;
    }
}
