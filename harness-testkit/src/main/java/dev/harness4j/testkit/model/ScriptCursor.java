package dev.harness4j.testkit.model;

/** Where one model's scenario stands: which step the next turn plays. Thread-safe. */
final class ScriptCursor {
    private final Scenario scenario;
    private int next;
    private String lastKey;
    private Step lastStep;

    ScriptCursor(Scenario scenario) {
        this.scenario = scenario;
    }

    Scenario scenario() {
        return scenario;
    }

    /**
     * The step for a conversation turn, resolved with the scenario's defaults. A request that
     * repeats the last answered turn of the same session replays its step; any other turn
     * consumes the next step, or gets the final {@code "Done."} turn when the steps ran out.
     */
    synchronized Step nextTurn(String repeatKey) {
        if (repeatKey != null && repeatKey.equals(lastKey) && lastStep != null) {
            return lastStep;
        }
        Step step = next < scenario.steps().size() ? scenario.resolved(scenario.steps().get(next++)) : scenario.doneStep();
        boolean answered = step.action() instanceof Step.WriteFile || step.action() instanceof Step.Shell
                || step.action() instanceof Step.Say;
        lastKey = answered ? repeatKey : null;
        lastStep = answered ? step : null;
        return step;
    }

    /** How many scripted steps were played so far. */
    synchronized int played() {
        return next;
    }
}
