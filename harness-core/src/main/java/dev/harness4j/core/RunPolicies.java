package dev.harness4j.core;

import dev.harness4j.api.Harness;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Login;
import dev.harness4j.api.NotLoggedInException;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.ServedModel;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The runner's trust policies, as pure functions: {@link HarnessRunner.Builder#requireServedModel}
 * (after the run) and {@link HarnessRunner.Builder#requireLogin} (before the harness starts).
 */
final class RunPolicies {
    private RunPolicies() {}

    /** A result under the served-model policy, and {@code meta.json}'s {@code trust} section (null when off). */
    record Trust(HarnessResult result, Map<String, Object> section) {}

    /**
     * Judges a finished run's served model. Under {@link Requirement#REQUIRED} a verdict other
     * than {@code match} marks the run untrusted; under {@link Requirement#STRICT} a run that
     * succeeded ({@code completed}, {@code no-op}) then ends {@code model-mismatch}. A run that
     * failed keeps its outcome (its failure says more), marked untrusted all the same.
     */
    static Trust servedModel(HarnessResult r, Requirement requirement) {
        if (requirement == Requirement.OFF) {
            return new Trust(r, null);
        }
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
        return new Trust(out, section);
    }

    /**
     * Refuses a run whose CLI is not logged in: {@code NOT_LOGGED_IN} under {@link
     * Requirement#REQUIRED}, also {@code UNKNOWN} under {@link Requirement#STRICT}. A harness
     * without a login probe has no login of its own to require (it reaches its model with the
     * provider's key) and always passes.
     *
     * @throws NotLoggedInException naming the CLI's login command
     */
    static void requireLogin(Harness harness, boolean hasProbe, Login login, Requirement requirement) {
        if (requirement == Requirement.OFF || !hasProbe || login.status() == Login.Status.LOGGED_IN) {
            return;
        }
        if (login.status() == Login.Status.UNKNOWN && requirement != Requirement.STRICT) {
            return;
        }
        String said = login.status() == Login.Status.NOT_LOGGED_IN ? "says it is not logged in"
                : "could not tell whether it is logged in (the probe failed, timed out or said nothing clear; strict "
                        + "mode refuses that too)";
        String fix = harness.loginCommand().map(c -> "log it in with: " + c)
                .orElse("give the provider a key, or log the CLI in");
        throw new NotLoggedInException(harness.id(), login.status(), "refused to run " + harness.id() + ": its CLI "
                + said + ", and this runner requires a login (requireLogin " + requirement.name().toLowerCase(Locale.ROOT)
                + "); " + fix + ". Nothing was started.");
    }
}
