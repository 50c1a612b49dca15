package dev.harness4j.core.stages;

import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.ServedModel;
import dev.harness4j.core.Requirement;
import dev.harness4j.core.pipeline.RunChain;
import dev.harness4j.core.pipeline.RunOutcome;
import dev.harness4j.core.pipeline.RunStage;
import dev.harness4j.core.pipeline.Slot;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The served-model policy: after the run, judges whether the model that answered is the one it
 * asked for (the meter's verdict, else the adapter's). {@link Requirement#REQUIRED}: a verdict
 * other than {@code match} marks the run untrusted ({@code meta.json}'s {@code trust}, a note);
 * {@link Requirement#STRICT}: such a run that succeeded ends {@code model-mismatch} instead. A run
 * that failed keeps its outcome (its failure says more), marked untrusted all the same.
 *
 * <pre>{@code
 * HarnessRunner.builder().stage(ServedModelStage.of(Requirement.STRICT))
 * }</pre>
 */
public final class ServedModelStage implements RunStage {
    private final Requirement requirement;

    private ServedModelStage(Requirement requirement) {
        this.requirement = requirement;
    }

    /**
     * The policy at a level; {@link Requirement#OFF} judges nothing.
     *
     * @param requirement how firmly the served model is required
     * @return the stage
     */
    public static ServedModelStage of(Requirement requirement) {
        return new ServedModelStage(Objects.requireNonNull(requirement, "requirement"));
    }

    /** Returns how firmly this stage requires the served model. */
    public Requirement requirement() {
        return requirement;
    }

    @Override
    public Slot slot() {
        return Slot.SERVED_MODEL;
    }

    @Override
    public String name() {
        return slot().wireName();
    }

    @Override
    public RunOutcome run(RunChain chain) throws InterruptedException {
        RunOutcome out = chain.proceed();
        if (requirement == Requirement.OFF || out.aborted() || !out.harnessRan()) {
            return out;
        }
        Judged judged = judge(out.result(), requirement);
        out.result(judged.result());
        out.section("trust", judged.section());
        if (!Boolean.TRUE.equals(judged.section().get("trusted"))) {
            out.note("untrusted: " + judged.section().get("reason"));
        }
        return out;
    }

    /** A result under the policy, and {@code meta.json}'s {@code trust} section. */
    record Judged(HarnessResult result, Map<String, Object> section) {}

    static Judged judge(HarnessResult r, Requirement requirement) {
        ServedModel s = r.servedModel();
        String why = switch (s.verdict()) {
            case MATCH -> null;
            case MISMATCH -> "served model mismatch: asked for " + s.requested() + ", answered by " + s.answered();
            case UNMEASURED -> "served model unmeasured: no source saw which model answered " + s.requested();
        };
        HarnessResult out = r;
        if (why != null && requirement == Requirement.STRICT && r.outcome().isSuccess()) {
            out = r.withOutcome(Outcome.MODEL_MISMATCH, why + " (the runner requires the served model, strict; the run "
                    + "itself ended " + r.outcome().wireName() + ")");
        }
        Map<String, Object> section = new LinkedHashMap<>();
        section.put("require_served_model", requirement.name().toLowerCase(Locale.ROOT));
        section.put("trusted", why == null);
        section.put("reason", why);
        return new Judged(out, section);
    }
}
