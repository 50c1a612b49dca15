package dev.harness4j.core.job;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.api.CompletionMode;
import dev.harness4j.api.Execution;
import dev.harness4j.api.Harness;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.InstallInfo;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.support.Outcomes;
import dev.harness4j.api.PhaseReport;
import dev.harness4j.api.ProviderResolver;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.Secret;
import java.net.URI;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A test harness for jobs whose adapter reports a phase report itself: runs {@code sh -c <option
 * "script">} in the workspace ({@code $PROMPT} holds the prompt, {@code $PROVIDER} the provider); a
 * stdout line {@code NOTES <text>} makes a self-reported {@link PhaseReport} with those
 * next-phase notes, a line {@code RATE-LIMITED <epoch seconds>} ends the run rate-limited until then,
 * a line {@code SESSION <id>} reports a session id; it resumes ({@code $RESUME_SESSION} holds the
 * session a follow-up continues, {@code $SCRATCH} the scratch dir).
 * Public, and listed in harness-cli's test services, for the {@code job} command's tests.
 */
public final class JobHarness implements Harness {
    public static final String ID = "job-test";

    @Override public String id() { return ID; }
    @Override public CompletionMode completionMode() { return CompletionMode.OPAQUE; }
    @Override public InstallInfo installInfo() { return new InstallInfo("sh", List.of("-c", "echo sh"), "apt-get install dash"); }
    @Override public boolean supportsFollowUp() { return true; }
    @Override public boolean supportsMcp() { return true; }

    @Override
    public Invocation prepare(HarnessContext ctx) {
        return Invocation.builder(ctx.executable(), "-c", ctx.option("script").orElse("true"))
                .workingDir(ctx.workspace())
                .env("GIT_AUTHOR_NAME", "Agent").env("GIT_AUTHOR_EMAIL", "agent@example.com")
                .env("GIT_COMMITTER_NAME", "Agent").env("GIT_COMMITTER_EMAIL", "agent@example.com")
                .env("PROMPT", ctx.prompt()).env("PROVIDER", ctx.provider().name())
                .env("SCRATCH", ctx.scratchDir().toString()).env("RESUME_SESSION", ctx.followUpSession().orElse(""))
                .env("MCP_SERVERS", String.join(",", ctx.mcpServers().stream().map(dev.harness4j.api.McpServer::name).toList()))
                .build();
    }

    @Override
    public HarnessResult interpret(Execution ex) {
        HarnessResult.Builder b = HarnessResult.builder(Outcomes.opaque(ex), ex.context().model());
        for (String line : ex.stdoutTail(50)) {
            if (line.startsWith("NOTES ")) {
                b.phaseReport(new PhaseReport(true, ex.changes().headMoved(), null, "done", line.substring(6),
                        List.of(), PhaseReport.Source.SELF_REPORT));
            } else if (line.startsWith("SESSION ")) {
                b.sessionId(line.substring(8).trim());
            } else if (line.startsWith("RATE-LIMITED ")) {
                b.outcome(Outcome.RATE_LIMITED).reason("429 from the scripted endpoint")
                        .retryAt(Instant.ofEpochSecond(Long.parseLong(line.substring(13).trim())));
            }
        }
        return b.build();
    }

    /** Providers {@code local} and {@code backup}. */
    static ProviderResolver providers() {
        return new ProviderResolver() {
            @Override
            public Optional<ResolvedProvider> resolve(String provider, String model) {
                if (!Set.of("local", "backup").contains(provider)) {
                    return Optional.empty();
                }
                return Optional.of(new ResolvedProvider(provider, EnumSet.of(ApiStyle.OPENAI),
                        URI.create("http://127.0.0.1:9"), Secret.of("sk-job-test-1234"), AuthScheme.API_KEY,
                        model != null ? model : "m1"));
            }

            @Override
            public Set<String> providerNames() {
                return Set.of("local", "backup");
            }
        };
    }
}
