package dev.harness4j.api;

import java.util.List;
import java.util.Objects;

/**
 * Which model really answered, against the one that was asked for.
 *
 * @param requested the model the run asked for
 * @param answered the model ids the responses named (empty when nothing revealed them)
 * @param verdict whether they agree
 */
public record ServedModel(String requested, List<String> answered, Verdict verdict) {

    /** Whether the models that answered are the one asked for. */
    public enum Verdict {
        /**
         * Every answering model is the requested one; an adapter may count an alias and the model it
         * names as the same (only the Claude adapter does: "sonnet" and "claude-sonnet-4-5").
         */
        MATCH,
        /** At least one answering model is another one: a substitution. */
        MISMATCH,
        /** Nothing revealed which model answered; never read as a match. */
        UNMEASURED
    }

    /**
     * Checks the parts and copies the answered ids.
     *
     * @param requested the model the run asked for
     * @param answered the model ids the responses named
     * @param verdict whether they agree
     * @throws IllegalArgumentException for a match or mismatch without answered ids
     */
    public ServedModel {
        Objects.requireNonNull(requested, "requested");
        answered = List.copyOf(Objects.requireNonNull(answered, "answered"));
        Objects.requireNonNull(verdict, "verdict");
        if (verdict != Verdict.UNMEASURED && answered.isEmpty()) {
            throw new IllegalArgumentException("a " + verdict + " verdict needs the models that answered");
        }
    }

    /**
     * Nothing revealed which model answered.
     *
     * @param requested the model the run asked for
     * @return an unmeasured served model
     */
    public static ServedModel unmeasured(String requested) {
        return new ServedModel(requested, List.of(), Verdict.UNMEASURED);
    }

    /**
     * Compares exactly: {@code match} when every answering id equals the requested one, {@code
     * unmeasured} when none answered.
     *
     * @param requested the model the run asked for
     * @param answered the model ids the responses named
     * @return the served model with its verdict
     */
    public static ServedModel exact(String requested, List<String> answered) {
        if (answered.isEmpty()) {
            return unmeasured(requested);
        }
        boolean all = answered.stream().allMatch(requested::equals);
        return new ServedModel(requested, answered, all ? Verdict.MATCH : Verdict.MISMATCH);
    }
}
