package dev.harness4j.bench;

import dev.harness4j.api.HarnessException;
import java.util.List;

/** A bench plan failed validation; nothing was queued. Lists every problem with its fix. */
public class BenchPlanException extends HarnessException {
    private static final long serialVersionUID = 1L;

    private final List<String> problems;

    public BenchPlanException(List<String> problems) {
        super("the bench plan is invalid; nothing was queued. Fix:\n  - " + String.join("\n  - ", problems));
        this.problems = List.copyOf(problems);
    }

    /** One line per problem, each saying what to fix. */
    public List<String> problems() {
        return problems;
    }
}
