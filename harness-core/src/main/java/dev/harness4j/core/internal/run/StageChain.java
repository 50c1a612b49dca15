package dev.harness4j.core.internal.run;

import dev.harness4j.api.HarnessEvent;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.NotLoggedInException;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.Termination;
import dev.harness4j.core.RunRecord;
import dev.harness4j.core.internal.capture.Redactor;
import dev.harness4j.core.pipeline.RunChain;
import dev.harness4j.core.pipeline.RunContext;
import dev.harness4j.core.pipeline.RunControl;
import dev.harness4j.core.pipeline.RunKeys;
import dev.harness4j.core.pipeline.RunOutcome;
import dev.harness4j.core.pipeline.RunStage;
import dev.harness4j.core.pipeline.RunStore;
import dev.harness4j.core.pipeline.Slot;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run's chain of stages: runs them outermost first, each around the rest, and turns what a
 * stage throws into an aborted {@link RunOutcome} for the stages outside it. Measures the time
 * each stage spends outside the stages it wraps. Used once, by the run's thread.
 */
public final class StageChain {
    private static final Logger log = LoggerFactory.getLogger(StageChain.class);

    private final List<RunStage> stages;
    private final RunContext run;
    private final RunStore store = new RunStore();
    private final RunOutcome outcome = new RunOutcome();
    private final AtomicBoolean bailed;
    private final RunControl control;
    private final long[] selfNanos;

    /**
     * @param stages the stages, outermost first; the last one is terminal
     * @param run the run's facts
     * @param bailed the run's bail flag
     * @param control the guard of its harness process
     */
    public StageChain(List<RunStage> stages, RunContext run, AtomicBoolean bailed, RunControl control) {
        this.stages = List.copyOf(stages);
        this.run = Objects.requireNonNull(run, "run");
        this.bailed = Objects.requireNonNull(bailed, "bailed");
        this.control = Objects.requireNonNull(control, "control");
        this.selfNanos = new long[this.stages.size()];
        store.put(CoreKeys.BAILED, bailed);
        store.put(CoreKeys.PHASE, RunRecord.Stage.WORKSPACE);
    }

    /** Returns the run's store, to publish what every stage starts from. */
    public RunStore store() {
        return store;
    }

    /**
     * Runs the chain; returns its outcome. What the outermost stage throws is thrown here (the
     * record stage turns every failure inside it into a result, so this is a failure to write one).
     */
    public RunOutcome start() throws InterruptedException {
        RunStage first = stages.get(0);
        Link link = new Link(0);
        long t0 = System.nanoTime();
        try {
            RunOutcome returned = first.run(link);
            if (returned != outcome) {
                throw new IllegalStateException("stage " + first.name() + " returned " + (returned == null ? "null"
                        : "another outcome") + "; a stage returns the outcome proceed() gave it");
            }
            return outcome;
        } finally {
            selfNanos[0] += System.nanoTime() - t0 - link.innerNanos;
        }
    }

    /** The time each stage spent outside the stages it wraps, by name, outermost first. */
    public Map<String, Duration> stageTimes() {
        Map<String, Duration> out = new LinkedHashMap<>();
        for (int i = 0; i < stages.size(); i++) {
            out.merge(stages.get(i).name(), Duration.ofNanos(selfNanos[i]), Duration::plus);
        }
        return out;
    }

    /** The chain as stage {@code index} sees it. */
    private final class Link implements RunChain {
        private final int index;
        private boolean proceeded;
        private long innerNanos;

        Link(int index) {
            this.index = index;
        }

        @Override
        public RunContext run() {
            return run;
        }

        @Override
        public RunStore store() {
            return store;
        }

        @Override
        public RunOutcome outcome() {
            return outcome;
        }

        @Override
        public boolean bailed() {
            return bailed.get();
        }

        @Override
        public RunControl control() {
            return control;
        }

        @Override
        public void status(HarnessEvent.Status status, String detail) {
            store.get(CoreKeys.EVENTS).ifPresent(e -> e.onEvent(new HarnessEvent.StatusChanged(run.runId(),
                    Instant.now(), status, detail)));
        }

        @Override
        public RunOutcome proceed() throws InterruptedException {
            if (proceeded) {
                throw new IllegalStateException("stage " + stages.get(index).name() + " called proceed() twice; a stage"
                        + " runs the rest of the chain at most once");
            }
            proceeded = true;
            int next = index + 1;
            if (next >= stages.size()) {
                throw new IllegalStateException("the terminal stage " + stages.get(index).name() + " called proceed()");
            }
            RunStage stage = stages.get(next);
            if (bailed.get() && outcome.process() == null && stage.slot().compareTo(Slot.WORKSPACE) > 0) {
                outcome.abort(phase(), HarnessResult.builder(Outcome.BAILED, run.model())
                        .reason("bailed before the harness started").build());
                return outcome;
            }
            Link inner = new Link(next);
            long t0 = System.nanoTime();
            try {
                RunOutcome returned = stage.run(inner);
                if (returned != outcome) {
                    throw new IllegalStateException("stage " + stage.name() + " returned " + (returned == null ? "null"
                            : "another outcome") + "; a stage returns the outcome proceed() gave it");
                }
            } catch (NotLoggedInException e) {
                throw e; // refused before the harness started: no result
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                outcome.abort(phase(), HarnessResult.builder(Outcome.BAILED, run.model()).reason("interrupted").build());
            } catch (RuntimeException e) {
                fail(stage, e);
            } finally {
                long total = System.nanoTime() - t0;
                selfNanos[next] += total - inner.innerNanos;
                innerNanos += total;
            }
            return outcome;
        }
    }

    private RunRecord.Stage phase() {
        return store.get(CoreKeys.PHASE).orElse(RunRecord.Stage.CAPTURE);
    }

    private void fail(RunStage stage, RuntimeException e) {
        RunRecord.Stage where = phase();
        Redactor redactor = Redactor.of(store.get(RunKeys.SECRETS).map(s -> s.values()).orElse(List.of()));
        String message = redactor.redact(e.getMessage() != null ? e.getMessage() : e.toString());
        if (message.equals(e.getMessage())) {
            log.warn("run {} failed at stage {} ({}): {}", run.runId(), where.wireName(), stage.name(), message, e);
        } else { // the exception's text held a secret: log it redacted, without the stack trace
            log.warn("run {} failed at stage {} ({}): {} ({})", run.runId(), where.wireName(), stage.name(), message,
                    e.getClass().getName());
        }
        outcome.abort(where, HarnessResult.builder(Outcome.ERROR, run.model())
                .reason(where.wireName() + " failed: " + message).build());
    }

    /**
     * Runs one run's stages with the store set up as every stage expects it (the runner's
     * services, the listener, the prompt framed so far, the provider with the run's model, the kept
     * workspace a follow-up continues in, or {@code null}); the
     * written record, with the time each stage took and the runner's own {@code preflight}.
     */
    public static RunRecord run(List<RunStage> stages, RunContext run, AtomicBoolean bailed, RunnerServices services,
            dev.harness4j.api.HarnessListener listener, String prompt, long preflightNanos,
            dev.harness4j.core.workspace.KeptWorkspace followUp) throws InterruptedException {
        StageChain chain = new StageChain(stages, run, bailed, control(services.supervisor(), run.runId()));
        if (followUp != null) {
            chain.store.put(CoreKeys.FOLLOW_UP, followUp);
        }
        chain.store.put(CoreKeys.SERVICES, services);
        chain.store.put(CoreKeys.LISTENER, listener);
        chain.store.put(RunKeys.PROMPT, prompt);
        chain.store.put(RunKeys.PROVIDER, run.provider().withModel(run.model()));
        chain.start();
        Map<String, Duration> times = new LinkedHashMap<>();
        times.put("preflight", Duration.ofNanos(preflightNanos));
        times.putAll(chain.stageTimes());
        return chain.store.require(CoreKeys.RECORD).toBuilder().stageTimes(times).build();
    }

    /** A {@link RunControl} over the supervisor's run of this id. */
    public static RunControl control(dev.harness4j.core.process.ProcessSupervisor supervisor, String runId) {
        return new RunControl() {
            @Override
            public void activity() {
                supervisor.activity(runId);
            }

            @Override
            public boolean stop(Termination termination) {
                return supervisor.stop(runId, termination);
            }
        };
    }
}
