package dev.harness4j.core.internal.run;

import dev.harness4j.api.AcpSession;
import dev.harness4j.api.Execution;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessEvent;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.McpServer;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.support.Outcomes;
import dev.harness4j.api.Termination;
import dev.harness4j.core.RunRecord;
import dev.harness4j.core.internal.acp.AcpClient;
import dev.harness4j.core.internal.workspace.CapturedChanges;
import dev.harness4j.core.internal.workspace.Workspace;
import dev.harness4j.core.pipeline.RunChain;
import dev.harness4j.core.pipeline.RunContext;
import dev.harness4j.core.pipeline.RunKeys;
import dev.harness4j.core.pipeline.RunOutcome;
import dev.harness4j.core.pipeline.RunSecrets;
import dev.harness4j.core.pipeline.RunStage;
import dev.harness4j.core.pipeline.RunStore;
import dev.harness4j.core.pipeline.Slot;
import dev.harness4j.core.process.ProcessOutcome;
import dev.harness4j.core.process.ProcessRequest;
import java.nio.file.Path;
import java.util.List;

/**
 * The terminal stage: the adapter's {@code prepare} (pure) — or, for an ACP agent, its {@code
 * acpSession}, driven over the agent's stdio by an {@link AcpClient} — the supervised harness process (its
 * whole tree stopped by the guard), the changes git captured, and the adapter's {@code
 * interpret} (pure) with the guard's verdict imposed. Publishes what the process did for the
 * trajectory; a bail accepted while the process was exiting by itself still ends the run bailed.
 */
public final class HarnessProcessStage implements RunStage {

    @Override
    public Slot slot() {
        return Slot.HARNESS;
    }

    @Override
    public String name() {
        return slot().wireName();
    }

    /** The context the adapter's translations see, from what the stages published. */
    public static HarnessContext context(RunChain chain) {
        return context(chain, chain.store().require(RunKeys.PROVIDER));
    }

    /** The context the adapter's translations see, with the given provider. */
    public static HarnessContext context(RunChain chain, dev.harness4j.api.ResolvedProvider provider) {
        RunContext run = chain.run();
        RunStore store = chain.store();
        RunnerServices services = store.require(CoreKeys.SERVICES);
        return HarnessContext.builder().runId(run.runId()).task(run.spec().prompt()).prompt(store.require(RunKeys.PROMPT))
                .provider(provider).workspace(store.require(RunKeys.WORKSPACE))
                .scratchDir(store.require(RunKeys.SCRATCH_DIR)).executable(run.executable().toString())
                .limits(run.spec().limits()).systemPrompt(run.spec().systemPrompt()).options(run.spec().options())
                .environment(services.environment()).runningAsRoot(services.runningAsRoot())
                .resumeSession(store.get(CoreKeys.FOLLOW_UP).map(k -> k.sessionId()).orElse(null))
                .keepSession(store.get(CoreKeys.KEEP_SESSION).orElse(false))
                .mcpServers(run.harness().supportsMcp() ? resolved(run.spec().mcpServers(), services.environment())
                        : java.util.List.of()).build();
    }

    /**
     * The servers with each stdio server's {@code envFrom} values taken from the runner's
     * environment (checked before the run started), as the adapter writes them.
     */
    static List<McpServer> resolved(List<McpServer> servers, java.util.Map<String, String> environment) {
        return servers.stream().map(m -> m instanceof McpServer.Stdio s ? (McpServer) s.resolve(environment::get) : m).toList();
    }

    /** The values the servers take from the runner's environment: secrets of the run. */
    static List<String> environmentValues(List<McpServer> servers, java.util.Map<String, String> environment) {
        return servers.stream().filter(McpServer.Stdio.class::isInstance).map(McpServer.Stdio.class::cast)
                .flatMap(s -> s.envFrom().values().stream()).map(environment::get).filter(java.util.Objects::nonNull).toList();
    }

    @Override
    public RunOutcome run(RunChain chain) throws InterruptedException {
        RunContext run = chain.run();
        RunStore store = chain.store();
        RunOutcome out = chain.outcome();
        RunnerServices services = store.require(CoreKeys.SERVICES);
        RunSecrets secrets = store.require(RunKeys.SECRETS);
        Workspace ws = store.require(CoreKeys.WORKSPACE);
        secrets.addAll(environmentValues(run.spec().mcpServers(), services.environment()));
        HarnessContext ctx = context(chain);
        java.util.Optional<AcpSession> acp = run.harness().acpSession(ctx);
        Invocation invocation = acp.isPresent() ? acp.get().launch() : run.harness().prepare(ctx);
        secrets.addAll(invocation.secretValues());
        if (chain.bailed()) {
            out.abort(RunRecord.Stage.PREPARE, HarnessResult.builder(Outcome.BAILED, run.model())
                    .reason("bailed before the harness started").build());
            return out;
        }
        store.put(CoreKeys.PHASE, RunRecord.Stage.RUN);
        chain.status(HarnessEvent.Status.RUNNING, null);
        Path io = ws.ioDir();
        ProcessOutcome process = services.supervisor().run(ProcessRequest.builder(run.runId(), invocation, ws.scratchDir())
                .confinement(store.get(CoreKeys.CONFINEMENT).orElse(null))
                .baseEnvironment(services.processEnvironment())
                .scope(services.workspaces().markerScope())
                .stdoutFile(io.resolve("stdout.log"))
                .stderrFile(io.resolve("stderr.log"))
                .transcriptFile(io.resolve("transcript.log"))
                .limits(run.spec().limits())
                .secrets(secrets.values())
                .listener(store.get(CoreKeys.EVENTS).map(e -> (dev.harness4j.api.HarnessListener) e)
                        .orElse(dev.harness4j.api.HarnessListener.NONE))
                .conversation(acp.map(session -> new AcpClient(run.runId(), session, ctx.workspace(), ctx.prompt(),
                        ctx.mcpServers(), AcpClient.HANDSHAKE_TIMEOUT, ctx.resumeSession())).orElse(null))
                .build());
        services.processEnded().accept(run.runId());
        out.process(process);
        for (Runnable r : store.get(CoreKeys.BEFORE_CAPTURE).orElse(List.of())) {
            r.run(); // the phase report leaves the checkout before the capture
        }
        store.put(CoreKeys.PHASE, RunRecord.Stage.CAPTURE);
        chain.status(HarnessEvent.Status.CAPTURING, null);
        CapturedChanges captured = services.changes().collect(ws);
        store.put(CoreKeys.CAPTURED, captured);
        out.changes(captured.changes());
        captured.notes().forEach(out::note);
        Termination termination = process.termination();
        if (termination.kind() == Termination.Kind.START_FAILED) {
            out.stage(RunRecord.Stage.RUN);
            store.put(CoreKeys.PHASE, RunRecord.Stage.RUN);
            out.result(HarnessResult.builder(Outcome.ERROR, run.model())
                    .reason("the harness process could not start: " + termination.reason()).build());
            return out;
        }
        Execution execution = new Execution(ctx, invocation, process.exitCode(), termination, io.resolve("stdout.log"),
                io.resolve("stderr.log"), captured.changes(), process.duration(), process.startedAt(),
                process.finishedAt());
        store.put(CoreKeys.EXECUTION, execution);
        HarnessResult result = imposeTermination(run.harness().interpret(execution), termination);
        out.adapterResult(result);
        if (chain.bailed() && termination.kind() == Termination.Kind.EXITED && result.outcome() != Outcome.BAILED) {
            // a bail accepted while the process was exiting: HarnessRunner.bail said yes, so it ends bailed
            result = result.withOutcome(Outcome.BAILED, "bailed as the harness exited by itself (exit "
                    + process.exitCode() + "); what it did is kept");
        }
        out.result(result);
        out.stage(null); // went through every stage
        store.put(CoreKeys.PHASE, RunRecord.Stage.CAPTURE);
        return out;
    }

    /** The guard's verdict wins over what the adapter read from a stopped process's output. */
    static HarnessResult imposeTermination(HarnessResult r, Termination t) {
        Outcome imposed = Outcomes.fromTermination(t).orElse(null);
        if (imposed != null && (r.outcome() != imposed || r.reason() == null)) {
            return r.withOutcome(imposed, t.reason() != null ? t.reason() : r.reason());
        }
        return r;
    }
}
