package dev.harness4j.core.internal.run;

import dev.harness4j.api.GitChanges;
import dev.harness4j.api.HarnessEvent;
import dev.harness4j.api.HarnessListener;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.NotLoggedInException;
import dev.harness4j.core.MeterSummary;
import dev.harness4j.core.RunRecord;
import dev.harness4j.core.internal.capture.EventLog;
import dev.harness4j.core.internal.capture.Redactor;
import dev.harness4j.core.internal.capture.ResultStore;
import dev.harness4j.core.internal.phase.PhaseReporter;
import dev.harness4j.core.internal.trajectory.RunTrajectory;
import dev.harness4j.core.internal.workspace.CapturedChanges;
import dev.harness4j.core.internal.workspace.SafeDelete;
import dev.harness4j.core.pipeline.RunChain;
import dev.harness4j.core.pipeline.RunContext;
import dev.harness4j.core.pipeline.RunKeys;
import dev.harness4j.core.pipeline.RunOutcome;
import dev.harness4j.core.pipeline.RunSecrets;
import dev.harness4j.core.pipeline.RunStage;
import dev.harness4j.core.pipeline.RunStore;
import dev.harness4j.core.pipeline.Slot;
import dev.harness4j.core.RunObserver;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The outermost stage: the run's event log and secrets, and at the end its result dir, written
 * whole ({@code meta.json}, the diff, the transcript, events, the meter's requests, the
 * trajectory, the stages' files), then what the inner stages left to clean up, the observers and
 * the {@code finished} event. A run that ends in a refusal ({@link NotLoggedInException}) leaves
 * no result.
 */
public final class RecordStage implements RunStage {
    private static final Logger log = LoggerFactory.getLogger(RecordStage.class);

    @Override
    public Slot slot() {
        return Slot.RECORD;
    }

    @Override
    public String name() {
        return slot().wireName();
    }

    @Override
    public RunOutcome run(RunChain chain) throws InterruptedException {
        RunContext run = chain.run();
        RunStore store = chain.store();
        RunnerServices services = store.require(CoreKeys.SERVICES);
        Path eventsFile = run.stateDir().resolve("runs").resolve(run.runId() + ".events.jsonl");
        store.put(CoreKeys.CLEANUP, new ArrayList<>());
        EventLog events = null;
        RunOutcome out = chain.outcome();
        try {
            EventLog log = new EventLog(eventsFile, Redactor.NONE, store.require(CoreKeys.LISTENER));
            events = log;
            RunSecrets secrets = new RunSecrets(values -> log.redactWith(Redactor.of(values)));
            secrets.add(run.provider().secret() != null ? run.provider().secret().reveal() : null);
            store.put(RunKeys.SECRETS, secrets);
            store.put(CoreKeys.EVENTS, log);
            chain.status(HarnessEvent.Status.PREPARING, null);
            out = chain.proceed();
        } catch (IOException e) {
            store.put(RunKeys.SECRETS, new RunSecrets(v -> { }));
            out.abort(RunRecord.Stage.WORKSPACE, HarnessResult.builder(dev.harness4j.api.Outcome.ERROR, run.model())
                    .reason("workspace failed: could not write the event log " + eventsFile + ": " + e).build());
        } catch (NotLoggedInException e) {
            try {
                if (events != null) {
                    closeQuietly(events);
                }
            } finally {
                cleanup(store, run, eventsFile, null, null);
            }
            throw e;
        } catch (Error e) { // LinkageError, StackOverflowError, OOM from an adapter: still a result, then rethrow
            try {
                String message = redactor(store).redact(e.toString());
                log.error("run {} failed with {}", run.runId(), message);
                RunRecord.Stage where = store.get(CoreKeys.PHASE).orElse(RunRecord.Stage.CAPTURE);
                out.abort(where, HarnessResult.builder(dev.harness4j.api.Outcome.ERROR, run.model())
                        .reason(where.wireName() + " failed: " + message).build());
                finish(chain, services, events, eventsFile);
            } catch (Throwable t) {
                e.addSuppressed(t);
                cleanup(store, run, eventsFile, null, null);
            }
            throw e;
        }
        finish(chain, services, events, eventsFile);
        return out;
    }

    private static Redactor redactor(RunStore store) {
        return Redactor.of(store.get(RunKeys.SECRETS).map(RunSecrets::values).orElse(List.of()));
    }

    private void finish(RunChain chain, RunnerServices services, EventLog events, Path eventsFile) {
        RunContext run = chain.run();
        RunStore store = chain.store();
        RunOutcome out = chain.outcome();
        Redactor redactor = redactor(store);
        String model = run.model();
        Path resultDir = services.results().dirFor(run.spec().task(), run.harness().id(), run.provider().name(), model,
                run.runId());
        HarnessResult result = out.result();
        if (result.phaseReport() == null) {
            result = result.withPhaseReport(PhaseReporter.uncaptured());
        }
        GitChanges changes = out.changes();
        var process = out.process();
        // the spec as the harness got it: its prompt framed
        RunRecord.Builder builder = RunRecord.builder(run.runId(), run.spec().withPrompt(store.require(RunKeys.PROMPT))).providerName(run.provider().name())
                .resolvedModel(model).baseline(run.baseline()).headAfter(changes != null ? changes.headCommit() : null)
                .result(result).stage(out.stage()).exitCode(process != null ? process.exitCode() : null)
                .termination(process != null ? process.termination() : null).startedAt(run.startedAt())
                .finishedAt(Instant.now()).changes(changes).login(out.login()).branch(out.branch()).notes(out.notes())
                .resultDir(resultDir).adapterResult(out.adapterResult()).meter(out.meter());
        builder.section("cli", services.installations().identify(run.harness(), run.executable())); // which binary ran
        builder.section("completion_mode", run.harness().completionMode().name().toLowerCase(Locale.ROOT));
        out.sections().forEach(builder::section);
        RunRecord record = builder.build();
        RuntimeException failure = null;
        Path trajectoryFile = eventsFile.resolveSibling(run.runId() + ".trajectory.json");
        try {
            if (events != null) {
                chain.status(HarnessEvent.Status.CAPTURING, "writing results");
                closeQuietly(events);
            }
            Path io = store.get(RunKeys.IO_DIR).orElse(null);
            CapturedChanges captured = store.get(CoreKeys.CAPTURED).orElse(null);
            Path requests = store.get(CoreKeys.REQUESTS).orElse(null);
            Map<String, Path> extra = new LinkedHashMap<>(out.files());
            ResultStore.RunFiles files = new ResultStore.RunFiles(
                    captured != null ? captured.patch() : null, captured != null ? captured.diffstat() : null,
                    io != null ? io.resolve("transcript.log") : null, eventsFile, requests,
                    RunTrajectory.files(extra, trajectoryFile, record, run.harness(),
                            store.get(CoreKeys.EXECUTION).orElse(null), requests != null ? io : null,
                            store.get(CoreKeys.PRICE).orElse(null), redactor));
            services.results().write(record, files, redactor);
        } catch (RuntimeException e) {
            failure = e;
        } finally {
            cleanup(store, run, eventsFile, trajectoryFile, failure);
        }
        if (failure != null) {
            throw failure;
        }
        store.put(CoreKeys.RECORD, record);
        for (RunObserver o : services.observers()) {
            try {
                o.runFinished(record);
            } catch (RuntimeException e) {
                log.warn("run {}: a RunObserver threw; ignored", run.runId(), e);
            }
        }
        HarnessListener listener = store.require(CoreKeys.LISTENER);
        try {
            listener.onEvent(new HarnessEvent.StatusChanged(run.runId(), Instant.now(), HarnessEvent.Status.FINISHED,
                    record.result().outcome().wireName()));
        } catch (RuntimeException e) {
            log.warn("a HarnessListener threw on the finished event of {}; ignored", run.runId(), e);
        }
        log.info("run {} ({} on {}) ended {} in {} ms -> {}", run.runId(), run.harness().id(), model,
                record.result().outcome().wireName(), Duration.between(run.startedAt(), record.finishedAt()).toMillis(),
                resultDir);
    }

    /** Runs what the inner stages left (last first), then deletes the run's events and trajectory files. */
    private static void cleanup(RunStore store, RunContext run, Path eventsFile, Path trajectoryFile,
            RuntimeException failure) {
        List<AutoCloseable> left = store.get(CoreKeys.CLEANUP).orElse(List.of());
        for (int i = left.size() - 1; i >= 0; i--) {
            try {
                left.get(i).close();
            } catch (Exception e) {
                log.warn("run {}: cleaning up failed", run.runId(), e);
                if (failure != null) {
                    failure.addSuppressed(e);
                }
            }
        }
        for (Path p : trajectoryFile == null ? List.of(eventsFile) : List.of(eventsFile, trajectoryFile)) {
            try {
                SafeDelete.deleteBelow(run.stateDir(), p);
            } catch (RuntimeException e) {
                log.warn("run {}: could not remove {}", run.runId(), p, e);
            }
        }
    }

    private static void closeQuietly(EventLog events) {
        try {
            events.close();
        } catch (IOException e) {
            log.warn("could not close the event log {}", events.file(), e);
        }
    }
}
