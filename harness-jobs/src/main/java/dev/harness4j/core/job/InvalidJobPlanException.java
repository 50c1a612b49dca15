package dev.harness4j.core.job;

import dev.harness4j.api.HarnessException;
import java.util.List;

/** A job plan that cannot run (a cycle, an unknown dependency, a phase with no harness, ...); every problem is listed, nothing was started or written. */
public final class InvalidJobPlanException extends HarnessException {
    private static final long serialVersionUID = 1L;
    private final List<String> problems;

    public InvalidJobPlanException(List<String> problems) {
        super("the job plan is invalid (" + problems.size() + " problem" + (problems.size() == 1 ? "" : "s")
                + "); nothing was started:\n  - " + String.join("\n  - ", problems));
        this.problems = List.copyOf(problems);
    }

    /** Each problem, one sentence each. */
    public List<String> problems() {
        return problems;
    }
}
