package dev.harness4j.core.internal.run;

import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.Limits;
import dev.harness4j.api.RunSpec;
import dev.harness4j.core.AfterHarness;
import dev.harness4j.core.internal.capture.ResultNames;
import dev.harness4j.core.internal.util.Checks;
import dev.harness4j.core.process.Confinement;
import dev.harness4j.core.process.ProcessOutcome;
import dev.harness4j.core.process.ProcessRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/** The {@link AfterHarness.Context} of one run: what the step may do, and what it added. Used by one thread. */
final class AfterHarnessStep implements AfterHarness.Context {
    private final RunnerServices services;
    private final String runId;
    private final RunSpec spec;
    private final HarnessResult result;
    private final Path workspace;
    private final Path scratch;
    private final dev.harness4j.core.pipeline.RunSecrets secrets;
    /** The confinement of a command run with {@code dir} as its scratch dir; null result: unconfined. */
    private final Function<Path, Confinement> confine;
    final Map<String, Path> files = new LinkedHashMap<>();
    final Map<String, Object> sections = new LinkedHashMap<>();
    private int commands;

    AfterHarnessStep(RunnerServices services, String runId, RunSpec spec, HarnessResult result, Path workspace,
            Path scratch, dev.harness4j.core.pipeline.RunSecrets secrets, Function<Path, Confinement> confine) {
        this.services = services;
        this.runId = runId;
        this.spec = spec;
        this.result = result;
        this.workspace = workspace;
        this.scratch = scratch;
        this.secrets = secrets;
        this.confine = confine;
        try {
            Files.createDirectories(scratch);
        } catch (IOException e) {
            throw new UncheckedIOException("could not create " + scratch, e);
        }
    }

    @Override
    public String runId() {
        return runId;
    }

    @Override
    public RunSpec spec() {
        return spec;
    }

    @Override
    public HarnessResult result() {
        return result;
    }

    @Override
    public Path workspace() {
        return workspace;
    }

    @Override
    public Path scratchDir() {
        return scratch;
    }

    @Override
    public ProcessOutcome run(List<String> command, Map<String, String> environment, Duration timeout, Path output)
            throws InterruptedException {
        Objects.requireNonNull(command, "command");
        Objects.requireNonNull(environment, "environment");
        Checks.positive(timeout, "timeout");
        Objects.requireNonNull(output, "output");
        if (command.isEmpty()) {
            throw new IllegalArgumentException("command is empty");
        }
        Invocation.Builder inv = Invocation.builder(command.get(0), command.subList(1, command.size()).toArray(String[]::new))
                .workingDir(workspace);
        environment.forEach(inv::env);
        Path io = scratch.resolve("io-" + (++commands));
        // its own process id: a bail of the run no longer applies once its harness process has ended
        // confined like the run (its network, without the meter): HOME is the step's own, the real one hidden
        return services.supervisor().run(ProcessRequest.builder(runId + "-after" + commands, inv.build(), io)
                .confinement(confine.apply(scratch))
                .baseEnvironment(services.processEnvironment())
                .scope(services.workspaces().markerScope())
                .stdoutFile(io.resolve("stdout.log"))
                .stderrFile(io.resolve("stderr.log"))
                .transcriptFile(output)
                .limits(new Limits(null, timeout, null))
                .secrets(secrets.values())
                .build());
    }

    @Override
    public void addResultFile(String name, Path source) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(source, "source");
        ResultNames.requireFileName(name);
        files.put(name, source);
    }

    @Override
    public void putMeta(String key, Object value) {
        Objects.requireNonNull(key, "key");
        ResultNames.requireSectionKey(key);
        ResultNames.requireJsonable(key, value);
        sections.put(key, value);
    }
}
