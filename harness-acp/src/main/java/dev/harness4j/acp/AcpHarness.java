package dev.harness4j.acp;

import dev.harness4j.api.AcpPermissions;
import dev.harness4j.api.AcpSession;
import dev.harness4j.api.CompletionMode;
import dev.harness4j.api.Execution;
import dev.harness4j.api.Harness;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessException;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.InstallInfo;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.TrajectoryStep;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Any ACP agent as a harness ({@code acp:<id>}): a pure description of the session harness-core
 * drives ({@link AcpSession}: the agent launched per its {@link AcpAgent} row, permissions per the
 * run option {@value AcpPermissions#OPTION}), and the result and trajectory read from the session's
 * JSON-RPC output ({@link AcpResults}, {@link AcpTrajectory}).
 *
 * <pre>{@code
 * Harness gemini = new AcpHarness(AcpAgents.bundled("gemini"));   // id "acp:gemini"
 * }</pre>
 *
 * <p>The bundled agents are registered for {@link java.util.ServiceLoader} each by a subclass with
 * a no-argument constructor ({@link AcpGeminiHarness}).
 */
public class AcpHarness implements Harness {
    private final AcpAgent agent;

    /**
     * A harness for one agent.
     *
     * @param agent the agent's row
     */
    public AcpHarness(AcpAgent agent) {
        this.agent = Objects.requireNonNull(agent, "agent");
    }

    /**
     * The agent this harness runs.
     *
     * @return its row
     */
    public AcpAgent agent() {
        return agent;
    }

    @Override
    public int apiVersion() {
        return API_VERSION;
    }

    @Override
    public String id() {
        return agent.harnessId();
    }

    @Override
    public CompletionMode completionMode() {
        return CompletionMode.OPAQUE; // a no-op after a failed request is refined by the wire
    }

    @Override
    public InstallInfo installInfo() {
        return new InstallInfo(agent.binary(), List.of("--version"), agent.install());
    }

    @Override
    public Optional<String> unsupported(ResolvedProvider provider) {
        if (provider.usesCliLogin()) {
            return Optional.of(id() + " cannot use provider '" + provider.name() + "', the CLI's own login: its runs "
                    + "use a private home, so the user's login is never seen; configure the provider with a base_url "
                    + "(and key_env)");
        }
        if (agent.apiStyles().stream().noneMatch(provider::serves)) {
            return Optional.of(id() + " cannot talk to provider '" + provider.name() + "': it serves "
                    + provider.apiStyles() + ", but " + agent.name() + " speaks " + agent.apiStyles()
                    + "; add one of those to the provider's api_styles if the endpoint serves it, or pick another harness");
        }
        return Optional.empty();
    }

    /**
     * {@inheritDoc}
     *
     * @throws HarnessException when the provider is unsupported or the {@value AcpPermissions#OPTION} option names no policy
     */
    @Override
    public Optional<AcpSession> acpSession(HarnessContext context) {
        unsupported(context.provider()).ifPresent(why -> {
            throw new HarnessException(why);
        });
        AcpPermissions permissions = AcpPermissions.fromOption(context.option(AcpPermissions.OPTION).orElse(null));
        return Optional.of(new AcpSession(AcpLaunch.of(agent, context), permissions, agent.mode()));
    }

    /** The session's launch ({@link #acpSession}); harness-core drives it over its stdio. */
    @Override
    public Invocation prepare(HarnessContext context) {
        return acpSession(context).orElseThrow().launch();
    }

    @Override
    public HarnessResult interpret(Execution execution) {
        return AcpResults.interpret(execution, agent);
    }

    @Override
    public Optional<Stream<TrajectoryStep>> trajectory(Execution execution) {
        return Optional.of(AcpTrajectory.of(execution));
    }

    /** The agent row's {@code stop_after_rate_limits}. */
    @Override
    public int stopAfterRateLimits() {
        return agent.stopAfterRateLimits();
    }

    @Override
    public int stopAfterEndpointFailures() {
        return agent.stopAfterEndpointFailures();
    }

    /** True: the run's MCP servers go in {@code session/new}'s {@code mcpServers}. */
    @Override
    public boolean supportsFollowUp() {
        return agent.followUp();
    }

    @Override
    public boolean supportsMcp() {
        return true;
    }
}
