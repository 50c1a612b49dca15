package dev.harness4j.claude;

import dev.harness4j.api.Execution;
import dev.harness4j.api.GitChanges;
import dev.harness4j.api.Harness;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.Limits;
import dev.harness4j.api.Login;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.core.process.ProcessOutcome;
import dev.harness4j.core.process.ProcessRequest;
import dev.harness4j.core.process.ProcessSupervisor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;

/** Runs a harness's real login probe under the process supervisor, as core would. */
final class LoginProbes {
    /** How long a login probe may run in a test: 60 s. */
    static final Duration PROBE_TIMEOUT = Duration.ofSeconds(60);

    private LoginProbes() {}

    static Login probe(Harness harness, String executable, ResolvedProvider provider, Path dir, Path workspace)
            throws Exception {
        Files.createDirectories(dir);
        HarnessContext ctx = HarnessContext.builder().runId("probe-" + UUID.randomUUID()).prompt("")
                .provider(provider).workspace(workspace).scratchDir(dir.resolve("scratch"))
                .executable(executable).environment(System.getenv()).runningAsRoot(true).build();
        Invocation probe = harness.loginProbe(ctx).orElseThrow();
        try (ProcessSupervisor supervisor = ProcessSupervisor.builder().build()) {
            ProcessOutcome outcome = supervisor.run(ProcessRequest.builder(ctx.runId(), probe, dir)
                    .scratchDir(ctx.scratchDir()).limits(Limits.NONE.withMaxRuntime(PROBE_TIMEOUT)).build());
            return harness.interpretLogin(new Execution(ctx, probe, outcome.exitCode(), outcome.termination(),
                    dir.resolve("stdout.log"), dir.resolve("stderr.log"), GitChanges.none("none"),
                    outcome.duration()));
        }
    }
}
