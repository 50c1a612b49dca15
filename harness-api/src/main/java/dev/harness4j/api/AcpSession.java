package dev.harness4j.api;

import java.util.Objects;

/**
 * An ACP (Agent Client Protocol, wire version 1) session harness-core drives for one run: the
 * pure description an adapter returns from {@link Harness#acpSession}.
 *
 * <p>harness-core starts {@link #launch()} under the run's supervisor and sandbox (its {@link
 * Invocation#stdin()} is ignored: stdin and stdout are the JSON-RPC 2.0 channel, one JSON message a
 * line), then sends {@code initialize} (id {@value #INITIALIZE_ID}), {@code session/new} (id
 * {@value #NEW_SESSION_ID}; {@code cwd} the workspace, {@code mcpServers} the run's {@link
 * HarnessContext#mcpServers()}) and {@code session/prompt} (id {@value #PROMPT_ID}, the run's
 * prompt as one text block), answers {@code session/request_permission} per {@link #permissions()}
 * and every other agent request with "method not found", and closes stdin once the prompt's
 * response came. On a stop (bail, a limit) it sends {@code session/cancel} first, waits briefly for
 * the agent to answer, then stops the process tree as for any run. The agent's stdout (its
 * responses and {@code session/update} notifications) is the run's {@code stdout.log} and
 * transcript, each line activity for the inactivity guard; the adapter's {@link Harness#interpret}
 * and {@link Harness#trajectory} read it as for any run.
 *
 * <pre>{@code
 * public Optional<AcpSession> acpSession(HarnessContext ctx) {
 *     return Optional.of(new AcpSession(Invocation.builder(ctx.executable(), "--acp")
 *             .workingDir(ctx.workspace()).env("MY_AGENT_BASE_URL", ctx.provider().rootUrl()).build(),
 *             AcpPermissions.fromOption(ctx.option(AcpPermissions.OPTION).orElse(null))));
 * }
 * }</pre>
 *
 * <p>With a {@link #mode()}, harness-core sends {@code session/set_mode} (id {@value #SET_MODE_ID})
 * with that mode id after {@code session/new} and prompts once the agent accepted it (a refusal
 * ends the session): for an agent whose default mode does not let it edit the workspace.
 *
 * @param launch the agent process: argv, environment for the provider, per-run files
 * @param permissions what to answer to the agent's permission requests
 * @param mode the session mode to set before the prompt (one of the agent's {@code modes}), or {@code null} for its default
 */
public record AcpSession(Invocation launch, AcpPermissions permissions, String mode) {

    /** The JSON-RPC id of harness-core's {@code initialize} request: {@value}. */
    public static final int INITIALIZE_ID = 1;
    /**
     * The JSON-RPC id of harness-core's {@code session/new} request, and of its {@code
     * session/load} of the earlier session on a follow-up run ({@link HarnessContext#resumeSession()},
     * for an adapter that says {@link Harness#supportsFollowUp()}): {@value}. The agent replays
     * the loaded session's history as {@code session/update}s before it answers; an adapter reads
     * only those after the answer as the run's own.
     */
    public static final int NEW_SESSION_ID = 2;
    /** The JSON-RPC id of harness-core's {@code session/prompt} request: {@value}. */
    public static final int PROMPT_ID = 3;
    /** The JSON-RPC id of harness-core's {@code session/set_mode} request: {@value}. */
    public static final int SET_MODE_ID = 4;
    /** The ACP wire protocol version harness-core speaks: {@value}. */
    public static final int PROTOCOL_VERSION = 1;

    /**
     * Checks the parts.
     *
     * @param launch the agent process
     * @param permissions the permission policy
     * @param mode the session mode, or {@code null}
     * @throws IllegalArgumentException when the mode is blank
     */
    public AcpSession {
        Objects.requireNonNull(launch, "launch");
        Objects.requireNonNull(permissions, "permissions");
        if (mode != null && mode.isBlank()) {
            throw new IllegalArgumentException("an ACP session mode must be a mode id such as \"auto\", or null for "
                    + "the agent's default; was blank");
        }
    }

    /**
     * A session in the agent's default mode.
     *
     * @param launch the agent process
     * @param permissions the permission policy
     */
    public AcpSession(Invocation launch, AcpPermissions permissions) {
        this(launch, permissions, null);
    }
}
