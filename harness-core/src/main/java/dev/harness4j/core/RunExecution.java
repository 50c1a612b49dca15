package dev.harness4j.core;

import dev.harness4j.api.Execution;
import dev.harness4j.api.GitChanges;
import dev.harness4j.api.Harness;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessEvent;
import dev.harness4j.api.HarnessListener;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.Isolation;
import dev.harness4j.api.Login;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.Outcomes;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.RunSpec;
import dev.harness4j.api.Termination;
import dev.harness4j.core.RunRecord.Stage;
import dev.harness4j.core.internal.capture.EventLog;
import dev.harness4j.core.internal.capture.Redactor;
import dev.harness4j.core.internal.capture.ResultStore;
import dev.harness4j.core.internal.phase.PhaseReporter;
import dev.harness4j.core.process.ProcessOutcome;
import dev.harness4j.core.process.ProcessRequest;
import dev.harness4j.core.workspace.Baseline;
import dev.harness4j.core.workspace.BranchPush;
import dev.harness4j.core.internal.workspace.BranchPusher;
import dev.harness4j.core.internal.workspace.CapturedChanges;
import dev.harness4j.core.internal.workspace.SafeDelete;
import dev.harness4j.core.internal.workspace.Workspace;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import dev.harness4j.core.internal.gateway.GatewayRun;
import dev.harness4j.core.internal.meter.BodyRecorder;
import dev.harness4j.core.internal.meter.MeterReport;
import dev.harness4j.core.internal.meter.MeterRun;
import dev.harness4j.core.internal.meter.RateLimitStop;
import dev.harness4j.core.internal.meter.RequestRecord;
import dev.harness4j.core.internal.meter.WireTruth;
import dev.harness4j.core.internal.trajectory.RunTrajectory;
import dev.harness4j.core.provider.ModelPrice;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One run of a {@link HarnessRunner}, from the workspace to the result on disk. Used once, by one thread. */
final class RunExecution {
    private static final Logger log = LoggerFactory.getLogger(RunExecution.class);
    /** The meter's per-request records in the run's io dir, copied into the result. */
    private static final String REQUESTS = "requests.jsonl";

    private final HarnessRunner runner;
    private final String runId;
    private final RunSpec spec;
    private final Harness harness;
    private final Path executable;
    private final ResolvedProvider provider;
    private final Baseline baseline;
    private final AtomicBoolean bailed;
    private final String model;
    private final Set<String> secrets = new LinkedHashSet<>();
    private final List<String> notes = new ArrayList<>();
    private final Instant startedAt = Instant.now();

    // what the stages found; read when the record is made
    private Stage stage = Stage.WORKSPACE;
    private Workspace ws;
    private ProcessOutcome outcome;
    private CapturedChanges captured;
    private HarnessResult result;
    private BranchPush branch;
    private Login login = Login.unknown();
    private MeterRun metered;
    /** Stops the run after too many 429s in a row (meter-fed); never when unmetered. */
    private RateLimitStop rateLimits = RateLimitStop.NEVER;
    private MeterReport wire;
    /** What the harness process did (for its trajectory), or null when it never ran. */
    private Execution execution;
    private Path trajectoryFile; // written next to the event log, deleted with it
    private HarnessResult adapterResult;
    private ModelPrice price;
    private GatewayRun gateway = GatewayRun.NONE;
    private java.util.Map<String, Object> gatewaySection;
    private AfterHarness afterHarness = AfterHarness.NONE;
    private PhaseReporter.Before reportBefore;
    private PhaseReporter.Taken reportTaken;
    private AfterHarnessStep after;
    /** What confined the harness process, for meta.json's {@code sandbox}; null when it did not start. */
    private java.util.Map<String, Object> sandbox;
    /** meta.json's {@code trust} under the served-model policy; null when the policy is off. */
    private java.util.Map<String, Object> trust;
    /** Whether the adapter has a login probe (asked only when the runner probes logins). */
    private boolean hasLoginProbe;
    /** The runner's listener, and the run's own when one was given. */
    private final HarnessListener listener;

    RunExecution(HarnessRunner runner, String runId, RunSpec spec, Harness harness, Path executable,
            ResolvedProvider provider, Baseline baseline, AtomicBoolean bailed, HarnessListener listener) {
        this.runner = runner;
        this.listener = listener;
        this.runId = runId;
        this.spec = spec;
        this.harness = harness;
        this.executable = executable;
        this.provider = provider;
        this.baseline = baseline;
        this.bailed = bailed;
        this.model = spec.model() != null ? spec.model() : provider.model();
        if (provider.secret() != null) {
            secrets.add(provider.secret().reveal());
        }
        if (runner.pushBranches) { // a token in the remote's URL must not reach the results
            secrets.addAll(BranchPusher.remoteCredentials(baseline.repo()));
        }
        if (baseline.dirty()) {
            notes.add(baseline.dirtyNote());
        }
    }

    /** Sets the step run after the harness, before the workspace is deleted; default none. */
    RunExecution afterHarness(AfterHarness value) {
        this.afterHarness = value;
        return this;
    }

    RunRecord execute() {
        Path eventsFile = runner.workspaces.stateDir().resolve("runs").resolve(runId + ".events.jsonl");
        EventLog events = null;
        try {
            events = new EventLog(eventsFile, Redactor.of(secrets), listener);
            status(events, HarnessEvent.Status.PREPARING, null);
            stages(events);
        } catch (dev.harness4j.api.NotLoggedInException e) { // refused before the harness started: no result
            try {
                closeMeter();
            } finally {
                if (events != null) {
                    closeQuietly(events);
                }
                cleanup(eventsFile, e);
            }
            throw e;
        } catch (IOException e) {
            fail(Stage.WORKSPACE, "could not write the event log " + eventsFile + ": " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            result = HarnessResult.builder(Outcome.BAILED, model).reason("interrupted").build();
        } catch (RuntimeException e) {
            Stage where = stage != null ? stage : Stage.CAPTURE;
            String message = Redactor.of(secrets).redact(e.getMessage() != null ? e.getMessage() : e.toString());
            if (message.equals(e.getMessage())) {
                log.warn("run {} failed at stage {}: {}", runId, where.wireName(), message, e);
            } else { // the exception's text held a secret: log it redacted, without the stack trace
                log.warn("run {} failed at stage {}: {} ({})", runId, where.wireName(), message, e.getClass().getName());
            }
            fail(where, message);
        } catch (Error e) { // LinkageError, StackOverflowError, OOM from an adapter: still a result, then rethrow
            Stage where = stage != null ? stage : Stage.CAPTURE;
            try {
                String message = Redactor.of(secrets).redact(e.toString());
                log.error("run {} failed at stage {} with {}", runId, where.wireName(), message);
                fail(where, message);
                finish(events, eventsFile);
            } catch (Throwable t) {
                e.addSuppressed(t);
                cleanup(eventsFile, null);
            }
            throw e;
        }
        return finish(events, eventsFile);
    }

    private void stages(EventLog events) throws InterruptedException {
        stage = Stage.WORKSPACE;
        ws = runner.workspaces.isolate(runId, baseline, spec.isolation());
        reportBefore = runner.phaseReporter.prepare(ws.dir());
        if (reportBefore.note() != null) {
            notes.add(reportBefore.note());
        }
        if (bailedBeforeStart()) {
            return;
        }
        stage = Stage.PREPARE;
        ResolvedProvider seen = provider.withModel(model);
        price = runner.price(provider.name(), model).orElse(null);
        gateway = runner.gateways.open(provider.name(), runId, spec); // a per-run key when the provider has a gateway
        secrets.addAll(gateway.secrets()); // redacted from transcripts, events and meta.json
        seen = gateway.provider(seen);
        if (runner.metering && provider.usesCliLogin()) {
            notes.add("the wire was not metered: provider " + provider.name() + " is the CLI's own login and has no "
                    + "endpoint to proxy; tokens, cost and served model are the adapter's");
        } else if (runner.metering) {
            metered = openMeter(seen);
            seen = metered.provider();
        }
        HarnessContext ctx = new HarnessContext(runId, spec.prompt(), seen, ws.dir(), ws.scratchDir(),
                executable.toString(), spec.limits(), spec.systemPrompt(), spec.options(), runner.environment,
                runner.runningAsRoot);
        Invocation invocation = harness.prepare(ctx);
        secrets.addAll(invocation.secretValues());
        events.redactWith(Redactor.of(secrets));
        if (bailedBeforeStart()) {
            return;
        }
        var section = RunnerSandbox.newSection(runner.sandbox); // the login probe is confined like the run
        var confinement = runner.sandbox.confine(runner.workspaces.stateDir(), ws.dir(), ws.scratchDir(), baseline.repo(),
                metered != null ? runner.meter().port() : null, spec.sandboxNetwork(), section).orElse(null);
        if (runner.loginProbe) {
            login = probeLogin(ctx, confinement);
            RunPolicies.requireLogin(harness, hasLoginProbe, login, runner.requireLogin);
            if (bailedBeforeStart()) {
                return;
            }
        }
        stage = Stage.RUN;
        status(events, HarnessEvent.Status.RUNNING, null);
        Path io = ws.ioDir();
        sandbox = section;
        if (confinement != null && provider.usesCliLogin() && "none".equals(sandbox.get("network"))) {
            notes.add("the sandbox gives this run no network, but provider " + provider.name() + " is the CLI's own "
                    + "login, which must reach its vendor: give the run HOST networking (RunSpec or HarnessRunner.Builder.sandboxNetwork)");
        }
        outcome = runner.supervisor.run(ProcessRequest.builder(runId, invocation, ws.scratchDir())
                .confinement(confinement)
                .baseEnvironment(runner.environment)
                .stdoutFile(io.resolve("stdout.log"))
                .stderrFile(io.resolve("stderr.log"))
                .transcriptFile(io.resolve("transcript.log"))
                .limits(spec.limits())
                .secrets(secrets)
                .listener(events)
                .build());
        runner.processEnded(runId);
        closeMeter();
        stage = Stage.CAPTURE;
        status(events, HarnessEvent.Status.CAPTURING, null);
        reportTaken = runner.phaseReporter.take(ws.dir(), reportBefore); // out of the checkout before the capture
        captured = runner.changes.collect(ws);
        notes.addAll(captured.notes());
        Termination termination = outcome.termination();
        if (termination.kind() == Termination.Kind.START_FAILED) {
            stage = Stage.RUN;
            result = HarnessResult.builder(Outcome.ERROR, model)
                    .reason("the harness process could not start: " + termination.reason()).build();
        } else {
            execution = new Execution(ctx, invocation, outcome.exitCode(), termination,
                    io.resolve("stdout.log"), io.resolve("stderr.log"), captured.changes(), outcome.duration(),
                    outcome.startedAt(), outcome.finishedAt());
            result = imposeTermination(harness.interpret(execution), termination);
            adapterResult = result;
            if (wire != null) {
                WireTruth.Applied applied = WireTruth.apply(result, wire, model, price, termination,
                        harness.completionMode());
                result = rateLimits.settle(applied.result());
                notes.addAll(applied.notes());
            }
            if (bailed.get() && termination.kind() == Termination.Kind.EXITED && result.outcome() != Outcome.BAILED) {
                // a bail accepted while the process was exiting: HarnessRunner.bail said yes, so it ends bailed
                result = result.withOutcome(Outcome.BAILED, "bailed as the harness exited by itself (exit "
                        + outcome.exitCode() + "); what it did is kept");
            }
            RunPolicies.Trust judged = RunPolicies.servedModel(result, runner.requireServedModel);
            result = judged.result();
            trust = judged.section();
            if (trust != null && !Boolean.TRUE.equals(trust.get("trusted"))) {
                notes.add("untrusted: " + trust.get("reason"));
            }
            stage = null; // went through every stage
        }
        settlePhaseReport(termination, io);
        if (runner.pushBranches) {
            branch = runner.pusher.push(ws, captured, ResultStore.taskDir(spec.task()) + "/"
                    + ResultStore.combo(harness.id(), provider.name(), model) + "/" + ResultStore.sanitise(runId))
                    .orElse(null);
        }
        runAfterHarness();
    }

    /** Gives the result its phase report (and, for a time stop racing a finished phase, its outcome). */
    private void settlePhaseReport(Termination termination, Path io) {
        try {
            Redactor redactor = Redactor.of(secrets);
            PhaseReporter.Settled s = runner.phaseReporter.settle(new PhaseReporter.Run(ws.dir(), captured.changes(),
                    captured.tree(), captured.patch(), io.resolve("transcript.log"), spec.prompt(), result, termination,
                    reportTaken, redactor::redact));
            result = s.result();
            notes.addAll(s.notes());
        } catch (RuntimeException e) {
            log.warn("run {}: finding its phase report failed: {}", runId, e.toString());
            notes.add("phase report: could not be made: " + Redactor.of(secrets).redact(String.valueOf(e.getMessage())));
        }
    }

    /** Runs the {@link AfterHarness} step; its failure becomes a note, not the run's outcome. */
    private void runAfterHarness() throws InterruptedException {
        if (afterHarness == AfterHarness.NONE) {
            return;
        }
        after = new AfterHarnessStep(runner, runId, spec, result, ws.dir(), ws.runDir().resolve("after"), secrets,
                scratch -> runner.sandbox.confine(runner.workspaces.stateDir(), ws.dir(), scratch, baseline.repo(), null,
                        spec.sandboxNetwork(), new java.util.LinkedHashMap<>()).orElse(null));
        try {
            afterHarness.afterHarness(after);
        } catch (RuntimeException e) {
            String message = Redactor.of(secrets).redact(String.valueOf(e.getMessage()));
            log.warn("run {}: the after-harness step failed: {}", runId, message);
            notes.add("the after-harness step failed: " + e.getClass().getSimpleName() + ": " + message);
        }
    }

    /** Opens the run's metering: activity and a passed budget go to the supervisor's guard. */
    private MeterRun openMeter(ResolvedProvider real) {
        rateLimits = RateLimitStop.of(runner.stopAfterRateLimits, harness,
                reason -> runner.supervisor.stop(runId, new Termination(Termination.Kind.RATE_LIMITED, reason)));
        MeterRun.Hooks hooks = new MeterRun.Hooks() {
            @Override
            public void activity() {
                runner.supervisor.activity(runId);
            }

            @Override
            public void budgetPassed(String reason) {
                runner.supervisor.stop(runId, new Termination(Termination.Kind.BUDGET, reason));
            }

            @Override
            public void requestEnded(RequestRecord r) {
                rateLimits.ended(r);
            }
        };
        try {
            if (runner.recordBodies) {
                return runner.meter().open(runId, real, hooks, spec.limits(), price, ws.ioDir().resolve(REQUESTS),
                        ws.ioDir().resolve(RunTrajectory.BODIES), BodyRecorder.MAX_BODY_BYTES);
            }
            return runner.meter().open(runId, real, hooks, spec.limits(), price, ws.ioDir().resolve(REQUESTS));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("could not open the run's requests.jsonl in " + ws.ioDir(), e);
        }
    }

    /** Ends the run's metering (idempotent); what the wire showed goes to {@link #wire}. */
    private void closeMeter() {
        if (metered != null && wire == null) {
            wire = metered.finish();
        }
    }

    /**
     * Asks the CLI whether it is logged in, through the supervisor, in the scratch dir, within
     * {@link HarnessRunner#DEFAULT_LOGIN_TIMEOUT}; any failure or timeout is {@link Login#unknown()}.
     * Confined like the run ({@code confinement}, null for unconfined): it sees the files and
     * environment the run will see, so it reports the login the run can use, not one of the
     * real HOME the sandbox hides.
     */
    private Login probeLogin(HarnessContext ctx, dev.harness4j.core.process.Confinement confinement)
            throws InterruptedException {
        try {
            var probe = harness.loginProbe(ctx);
            if (probe.isEmpty()) {
                return Login.unknown();
            }
            hasLoginProbe = true;
            Invocation inv = probe.get();
            secrets.addAll(inv.secretValues());
            String cacheKey = loginCacheKey(inv, ctx);
            Login cached = runner.cachedLogin(cacheKey);
            if (cached != null) {
                return cached;
            }
            Path io = ws.ioDir();
            ProcessOutcome o = runner.supervisor.run(ProcessRequest.builder(runId, inv, ws.scratchDir())
                    .confinement(confinement)
                    .baseEnvironment(runner.environment)
                    .stdoutFile(io.resolve("login-stdout.log"))
                    .stderrFile(io.resolve("login-stderr.log"))
                    .transcriptFile(io.resolve("login-transcript.log"))
                    .limits(new dev.harness4j.api.Limits(null, runner.loginTimeout, null))
                    .secrets(secrets)
                    .build());
            if (o.termination().kind() == Termination.Kind.BAILED) {
                bailed.set(true); // a bail that stopped the probe stops the run
            }
            if (o.termination().kind() != Termination.Kind.EXITED) {
                log.info("run {}: login probe of {} ended {}; login unknown", runId, harness.id(), o.termination());
                return Login.unknown();
            }
            Login l = harness.interpretLogin(new Execution(ctx, inv, o.exitCode(), o.termination(),
                    io.resolve("login-stdout.log"), io.resolve("login-stderr.log"),
                    GitChanges.none(baseline.commit()), o.duration(), o.startedAt(), o.finishedAt()));
            if (l == null) {
                return Login.unknown();
            }
            runner.cacheLogin(cacheKey, l);
            return l;
        } catch (InterruptedException e) {
            throw e;
        } catch (RuntimeException e) {
            log.info("run {}: login probe of {} failed ({}); login unknown", runId, harness.id(),
                    Redactor.of(secrets).redact(String.valueOf(e.getMessage())));
            return Login.unknown();
        }
    }

    /**
     * What makes a login probe's answer: the harness, the probe's command, environment and files
     * with this run's own paths, id and meter URL taken out, and the real endpoint; hashed (SHA-256)
     * so that no key sits in the cache.
     */
    private String loginCacheKey(Invocation inv, HarnessContext ctx) {
        StringBuilder sb = new StringBuilder(harness.id()).append('\0').append(provider.name()).append('\0')
                .append(provider.baseUrl()).append('\0').append(String.join("\0", inv.command()));
        new java.util.TreeMap<>(inv.environment()).forEach((k, v) -> sb.append('\0').append(k).append('=').append(v));
        inv.removeEnvironment().stream().sorted().forEach(k -> sb.append("\0-").append(k));
        new java.util.TreeMap<>(inv.files()).forEach((k, v) -> sb.append('\0').append(k).append(':').append(v));
        sb.append('\0').append(inv.workingDir()).append('\0').append(inv.stdin());
        String text = sb.toString().replace(ws.scratchDir().toString(), "<scratch>").replace(ws.dir().toString(), "<ws>")
                .replace(runId, "<run>");
        if (!provider.usesCliLogin()) { // the meter's per-run URL stands for the real one
            text = text.replace(ctx.provider().rootUrl(), provider.rootUrl());
        }
        try {
            byte[] h = java.security.MessageDigest.getInstance("SHA-256").digest(text.getBytes(
                    java.nio.charset.StandardCharsets.UTF_8));
            return java.util.HexFormat.of().formatHex(h);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    private boolean bailedBeforeStart() {
        if (bailed.get()) {
            result = HarnessResult.builder(Outcome.BAILED, model).reason("bailed before the harness started").build();
            return true;
        }
        return false;
    }

    /** The guard's verdict wins over what the adapter read from a stopped process's output. */
    private static HarnessResult imposeTermination(HarnessResult r, Termination t) {
        Outcome imposed = Outcomes.fromTermination(t).orElse(null);
        if (imposed != null && (r.outcome() != imposed || r.reason() == null)) {
            return r.withOutcome(imposed, t.reason() != null ? t.reason() : r.reason());
        }
        return r;
    }

    private void fail(Stage where, String reason) {
        stage = where;
        result = HarnessResult.builder(Outcome.ERROR, model).reason(where.wireName() + " failed: " + reason).build();
    }

    private RunRecord finish(EventLog events, Path eventsFile) {
        try {
            closeMeter();
        } catch (RuntimeException e) {
            log.warn("run {}: closing its metering failed: {}", runId, e.toString());
        }
        settleGateway();
        Path resultDir = runner.store.dirFor(spec.task(), harness.id(), provider.name(), model, runId);
        Redactor redactor = Redactor.of(secrets);
        GitChanges changes = captured != null ? captured.changes() : null;
        if (result.phaseReport() == null) {
            result = result.withPhaseReport(PhaseReporter.uncaptured());
        }
        RunRecord.Builder builder = RunRecord.builder(runId, spec).providerName(provider.name()).resolvedModel(model)
                .baseline(baseline).headAfter(changes != null ? changes.headCommit() : null).result(result).stage(stage)
                .exitCode(outcome != null ? outcome.exitCode() : null)
                .termination(outcome != null ? outcome.termination() : null).startedAt(startedAt)
                .finishedAt(Instant.now()).changes(changes).login(login).branch(branch).notes(notes)
                .resultDir(resultDir).adapterResult(adapterResult)
                .meter(wire == null || outcome == null ? null : new MeterSummary(wire.requests(), wire.modelRequests(),
                        wire.measuredRequests(), wire.tokens(), wire.answered(), wire.budgetPassed()));
        builder.section("cli", runner.installations.identify(harness, executable)); // which binary ran
        builder.section("completion_mode", harness.completionMode().name().toLowerCase(java.util.Locale.ROOT));
        if (gatewaySection != null) {
            builder.section("gateway", gatewaySection);
        }
        if (sandbox != null) {
            builder.section("sandbox", sandbox);
        }
        if (trust != null) {
            builder.section("trust", trust);
        }
        if (after != null) {
            after.sections.forEach(builder::section);
        }
        RunRecord record = builder.build();
        RuntimeException failure = null;
        Future<?> checkoutRemoval = removeCheckoutInBackground();
        try {
            if (events != null) {
                status(events, HarnessEvent.Status.CAPTURING, "writing results");
                closeQuietly(events);
            }
            Path io = ws != null ? ws.ioDir() : null;
            trajectoryFile = eventsFile.resolveSibling(runId + ".trajectory.json");
            ResultStore.RunFiles files = new ResultStore.RunFiles(
                    captured != null ? captured.patch() : null, captured != null ? captured.diffstat() : null,
                    io != null ? io.resolve("transcript.log") : null, eventsFile,
                    io != null && metered != null ? io.resolve(REQUESTS) : null,
                    RunTrajectory.files(after != null ? after.files : java.util.Map.of(), trajectoryFile, record,
                            harness, execution, metered != null ? io : null, price, redactor));
            runner.store.write(record, files, redactor);
        } catch (RuntimeException e) {
            failure = e;
        } finally {
            await(checkoutRemoval);
            cleanup(eventsFile, failure);
        }
        if (failure != null) {
            throw failure;
        }
        for (RunObserver o : runner.observers) {
            try {
                o.runFinished(record);
            } catch (RuntimeException e) {
                log.warn("run {}: a RunObserver threw; ignored", runId, e);
            }
        }
        safeNotify(new HarnessEvent.StatusChanged(runId, Instant.now(), HarnessEvent.Status.FINISHED,
                result.outcome().wireName()));
        log.info("run {} ({} on {}) ended {} in {} ms -> {}", runId, harness.id(), model, result.outcome().wireName(),
                Duration.between(startedAt, record.finishedAt()).toMillis(), resultDir);
        return record;
    }

    /** Reads the gateway's spend for the run (two agreeing reads) and revokes its key; never fails the run. */
    private void settleGateway() {
        if (!gateway.active()) {
            return;
        }
        try {
            GatewayRun.Applied applied = gateway.finish(result, wire, model,
                    outcome != null && outcome.termination().kind() != Termination.Kind.START_FAILED);
            result = applied.result();
            notes.addAll(applied.notes());
            gatewaySection = applied.section();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            notes.add("gateway: interrupted while reading the run's spend; tokens are not the gateway's");
        } catch (RuntimeException e) {
            String message = Redactor.of(secrets).redact(String.valueOf(e.getMessage()));
            log.warn("run {}: gateway accounting failed: {}", runId, message);
            notes.add("gateway: accounting failed (" + e.getClass().getSimpleName() + ": " + message + ")");
        }
    }

    /**
     * Starts deleting a clone's checkout, the bulk of the run dir, on the runner's housekeeping
     * thread while the results are written (nothing in the results is read from it); the rest of
     * the run dir goes in {@link #cleanup}, which also deletes whatever this left. A worktree is
     * left to {@link Workspace#close()}, which must unregister it.
     */
    private Future<?> removeCheckoutInBackground() {
        if (ws == null || ws.isolation() != Isolation.CLONE) {
            return null;
        }
        Path root = runner.workspaces.stateDir();
        Path checkout = ws.dir();
        try {
            return runner.housekeeping.submit(() -> SafeDelete.deleteBelow(root, checkout));
        } catch (RejectedExecutionException e) {
            return null; // the runner is closed: cleanup deletes it all
        }
    }

    private void await(Future<?> removal) {
        if (removal == null) {
            return;
        }
        try {
            removal.get();
        } catch (ExecutionException e) {
            log.debug("run {}: deleting the checkout in the background failed ({}); deleting it again", runId,
                    e.getCause().toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // cleanup still deletes the run dir, racing the background delete harmlessly
        }
    }

    private void cleanup(Path eventsFile, RuntimeException failure) {
        try {
            if (ws != null) {
                ws.close();
            }
        } catch (RuntimeException e) {
            log.warn("run {}: could not remove its workspace {}", runId, ws.runDir(), e);
            if (failure != null) {
                failure.addSuppressed(e);
            }
        }
        for (Path p : trajectoryFile == null ? List.of(eventsFile) : List.of(eventsFile, trajectoryFile)) {
            try {
                SafeDelete.deleteBelow(runner.workspaces.stateDir(), p);
            } catch (RuntimeException e) {
                log.warn("run {}: could not remove {}", runId, p, e);
            }
        }
    }

    private void status(EventLog events, HarnessEvent.Status status, String detail) {
        events.onEvent(new HarnessEvent.StatusChanged(runId, Instant.now(), status, detail));
    }

    private void safeNotify(HarnessEvent event) {
        try {
            listener.onEvent(event);
        } catch (RuntimeException e) {
            log.warn("a HarnessListener threw on {}; ignored", event, e);
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
