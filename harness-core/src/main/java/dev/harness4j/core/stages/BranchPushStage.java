package dev.harness4j.core.stages;

import dev.harness4j.core.internal.capture.ResultStore;
import dev.harness4j.core.internal.run.CoreKeys;
import dev.harness4j.core.internal.util.Checks;
import dev.harness4j.core.internal.workspace.BranchPusher;
import dev.harness4j.core.internal.workspace.CapturedChanges;
import dev.harness4j.core.pipeline.RunChain;
import dev.harness4j.core.pipeline.RunContext;
import dev.harness4j.core.pipeline.RunKeys;
import dev.harness4j.core.pipeline.RunOutcome;
import dev.harness4j.core.pipeline.RunStage;
import dev.harness4j.core.pipeline.Slot;
import java.time.Duration;

/**
 * Pushes each run's captured changes to a branch {@code harnesstests/<task>/<harness>__<provider>__<model>/<runId>}
 * of the baseline's remote (when it has one), recorded in {@code meta.json}'s {@code branch}.
 * Credentials in the remote's URL are the run's secrets. Not in a runner unless asked: a library
 * writes to no remote by default.
 *
 * <pre>{@code
 * HarnessRunner.builder().stage(BranchPushStage.builder().timeout(Duration.ofMinutes(5)).build())
 * }</pre>
 */
public final class BranchPushStage implements RunStage {
    /** How long pushing a result branch may take: 2 minutes. */
    public static final Duration DEFAULT_TIMEOUT = BranchPusher.DEFAULT_PUSH_TIMEOUT;

    private final Duration timeout;
    private BranchPusher pusher; // made with the first run's workspaces; guarded by this

    private BranchPushStage(Builder b) {
        this.timeout = b.timeout;
    }

    /** Returns a builder with the {@link #DEFAULT_TIMEOUT}. */
    public static Builder builder() {
        return new Builder();
    }

    /** Returns how long one push may take. */
    public Duration timeout() {
        return timeout;
    }

    @Override
    public Slot slot() {
        return Slot.BRANCH_PUSH;
    }

    @Override
    public String name() {
        return slot().wireName();
    }

    @Override
    public RunOutcome run(RunChain chain) throws InterruptedException {
        RunContext run = chain.run();
        chain.store().require(RunKeys.SECRETS).addAll(BranchPusher.remoteCredentials(run.baseline().repo()));
        RunOutcome out = chain.proceed();
        CapturedChanges captured = chain.store().get(CoreKeys.CAPTURED).orElse(null);
        if (out.aborted() || captured == null) {
            return out;
        }
        pusher(chain).push(chain.store().require(CoreKeys.WORKSPACE), captured, ResultStore.taskDir(run.spec().task())
                + "/" + ResultStore.combo(run.harness().id(), run.provider().name(), run.model()) + "/"
                + ResultStore.sanitise(run.runId())).ifPresent(out::branch);
        return out;
    }

    private synchronized BranchPusher pusher(RunChain chain) {
        if (pusher == null) {
            pusher = new BranchPusher(chain.store().require(CoreKeys.SERVICES).workspaces(), timeout);
        }
        return pusher;
    }

    /** Builds a {@link BranchPushStage}. */
    public static final class Builder {
        private Duration timeout = DEFAULT_TIMEOUT;

        private Builder() {}

        /**
         * How long one push may take; default {@link #DEFAULT_TIMEOUT}.
         *
         * @param value a positive duration
         * @return this builder
         */
        public Builder timeout(Duration value) {
            this.timeout = Checks.positive(value, "timeout");
            return this;
        }

        /** Returns the stage. */
        public BranchPushStage build() {
            return new BranchPushStage(this);
        }
    }
}
