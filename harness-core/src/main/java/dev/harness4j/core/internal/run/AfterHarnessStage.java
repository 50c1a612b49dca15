package dev.harness4j.core.internal.run;

import dev.harness4j.core.AfterHarness;
import dev.harness4j.core.internal.capture.Redactor;
import dev.harness4j.core.internal.workspace.Workspace;
import dev.harness4j.core.pipeline.RunChain;
import dev.harness4j.core.pipeline.RunContext;
import dev.harness4j.core.pipeline.RunKeys;
import dev.harness4j.core.pipeline.RunOutcome;
import dev.harness4j.core.pipeline.RunSecrets;
import dev.harness4j.core.pipeline.RunStage;
import dev.harness4j.core.pipeline.RunStore;
import dev.harness4j.core.pipeline.Slot;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the caller's {@link AfterHarness} step (a bench's verifier) once the harness process has
 * run, in the workspace with the agent's changes in place, confined like the run; what it adds
 * goes to the outcome, and its failure becomes a note, never the run's outcome.
 */
public final class AfterHarnessStage implements RunStage {
    private static final Logger log = LoggerFactory.getLogger(AfterHarnessStage.class);

    @Override
    public Slot slot() {
        return Slot.AFTER_HARNESS;
    }

    @Override
    public String name() {
        return slot().wireName();
    }

    @Override
    public RunOutcome run(RunChain chain) throws InterruptedException {
        RunOutcome out = chain.proceed();
        RunContext run = chain.run();
        if (out.aborted() || out.process() == null || run.afterHarness() == AfterHarness.NONE) {
            return out;
        }
        RunStore store = chain.store();
        RunSecrets secrets = store.require(RunKeys.SECRETS);
        Workspace ws = store.require(CoreKeys.WORKSPACE);
        var confine = store.get(CoreKeys.STEP_CONFINEMENT).orElse(scratch -> null);
        AfterHarnessStep step = new AfterHarnessStep(store.require(CoreKeys.SERVICES), run.runId(), run.spec()
                .withPrompt(store.require(RunKeys.PROMPT)), out.result(), ws.dir(), ws.runDir().resolve("after"), secrets,
                confine);
        try {
            run.afterHarness().afterHarness(step);
        } catch (RuntimeException e) {
            String message = Redactor.of(secrets.values()).redact(String.valueOf(e.getMessage()));
            log.warn("run {}: the after-harness step failed: {}", run.runId(), message);
            out.note("the after-harness step failed: " + e.getClass().getSimpleName() + ": " + message);
        }
        step.files.forEach((name, path) -> out.file(name, path));
        step.sections.forEach(out::section);
        return out;
    }
}
