package dev.harness4j.core.stages;

import dev.harness4j.core.PhaseReports;
import dev.harness4j.core.internal.capture.Redactor;
import dev.harness4j.core.internal.phase.PhaseReporter;
import dev.harness4j.core.internal.run.CoreKeys;
import dev.harness4j.core.internal.workspace.CapturedChanges;
import dev.harness4j.core.pipeline.RunChain;
import dev.harness4j.core.pipeline.RunKeys;
import dev.harness4j.core.pipeline.RunOutcome;
import dev.harness4j.core.pipeline.RunStage;
import dev.harness4j.core.pipeline.RunStore;
import dev.harness4j.core.pipeline.Slot;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives every run its phase report by the rules of {@link PhaseReports}: appends the self-report
 * contract to the prompt (when on), takes the agent's report file out of the checkout before the
 * changes are captured, then settles the report (the adapter's, the agent's, the summarizer's or
 * git's; {@code committed} always from git). Never fails a run: a problem becomes a note.
 *
 * <pre>{@code
 * HarnessRunner.builder().stage(PhaseReportStage.of(PhaseReports.DEFAULT.withSummarizer("anthropic", "claude-haiku-4-5")))
 * }</pre>
 */
public final class PhaseReportStage implements RunStage {
    private static final Logger log = LoggerFactory.getLogger(PhaseReportStage.class);

    private final PhaseReports reports;
    private PhaseReporter reporter; // made with the first run's resolver; guarded by this

    private PhaseReportStage(PhaseReports reports) {
        this.reports = reports;
    }

    /**
     * The stage under the given rules.
     *
     * @param reports how reports are found
     * @return the stage
     */
    public static PhaseReportStage of(PhaseReports reports) {
        return new PhaseReportStage(Objects.requireNonNull(reports, "reports"));
    }

    /** Returns the rules. */
    public PhaseReports reports() {
        return reports;
    }

    @Override
    public Slot slot() {
        return Slot.PHASE_REPORT;
    }

    @Override
    public String name() {
        return slot().wireName();
    }

    @Override
    public RunOutcome run(RunChain chain) throws InterruptedException {
        RunStore store = chain.store();
        PhaseReporter reporter = reporter(chain);
        Path workspace = store.require(RunKeys.WORKSPACE);
        PhaseReporter.Before before = reporter.prepare(workspace);
        if (before.note() != null) {
            chain.outcome().note(before.note());
        }
        store.put(RunKeys.PROMPT, reporter.prompt(store.require(RunKeys.PROMPT)));
        PhaseReporter.Taken[] taken = new PhaseReporter.Taken[1];
        store.computeIfAbsent(CoreKeys.BEFORE_CAPTURE, ArrayList::new).add(() -> taken[0] = reporter.take(workspace, before));
        RunOutcome out = chain.proceed();
        CapturedChanges captured = store.get(CoreKeys.CAPTURED).orElse(null);
        if (out.aborted() || captured == null || taken[0] == null) {
            return out;
        }
        Redactor redactor = Redactor.of(store.require(RunKeys.SECRETS).values());
        try {
            Path io = store.require(RunKeys.IO_DIR);
            PhaseReporter.Settled s = reporter.settle(new PhaseReporter.Run(workspace, captured.changes(), captured.tree(),
                    captured.patch(), io.resolve("transcript.log"), chain.run().spec().prompt(), out.result(),
                    out.termination(), taken[0], redactor::redact));
            out.result(s.result());
            s.notes().forEach(out::note);
        } catch (RuntimeException e) {
            log.warn("run {}: finding its phase report failed: {}", chain.run().runId(), e.toString());
            out.note("phase report: could not be made: " + redactor.redact(String.valueOf(e.getMessage())));
        }
        return out;
    }

    private synchronized PhaseReporter reporter(RunChain chain) {
        if (reporter == null) {
            var resolve = chain.store().require(CoreKeys.SERVICES).resolve();
            reporter = new PhaseReporter(reports, resolve);
        }
        return reporter;
    }
}
