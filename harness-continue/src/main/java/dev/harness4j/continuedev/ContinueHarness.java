package dev.harness4j.continuedev;

import dev.harness4j.api.CompletionMode;
import dev.harness4j.api.Execution;
import dev.harness4j.api.Harness;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.InstallInfo;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.ResolvedProvider;
import java.util.List;
import java.util.Optional;

/**
 * Runs Continue's CLI ({@code cn} of {@code @continuedev/cli} on npm, a pure node bundle) headless
 * on an OpenAI-compatible or Anthropic endpoint, with a per-run config and global dir, reading the
 * outcome and summary from the one JSON object it prints at the end.
 *
 * <h2>Invocation</h2>
 * <pre>
 * cn -p --auto --config &lt;scratch&gt;/continue/config.yaml --format json "&lt;prompt&gt;"
 * </pre>
 * The config (schema v1) names the run's model as its only one: {@code provider: openai} (or
 * {@code anthropic}) with {@code apiBase} the provider's {@code /v1/} URL, and {@code apiKey:
 * ${{ secrets.H4J_CONTINUE_API_KEY }}}, which Continue 1.5.47 resolves from the process
 * environment: the key is in no file, argv or log. {@code CONTINUE_GLOBAL_DIR} (sessions, logs,
 * permissions), {@code HOME} and {@code TMPDIR} point into the scratch dir; {@code CONTINUE_*} is
 * removed from the inherited environment; metrics and telemetry are off ({@code
 * CONTINUE_METRICS_ENABLED=0}, {@code CONTINUE_CLI_ENABLE_TELEMETRY=0}) and the self-update is off
 * ({@code autoUpdateCli: false} in the per-run global context). The CLI still asks {@code
 * api.continue.dev} for its newest version (a hard-coded URL, no setting found to stop it); under
 * the sandbox, whose network reaches only the meter, that lookup fails silently. The run's system
 * prompt goes before the prompt; max turns are not passed.
 *
 * <h2>What is measured</h2>
 * <ul>
 *   <li>outcome: exit code (1 on an API error) and git changes (completed / no-op / error), refined
 *       by the error object {@code {"status":"error","message":...}} on stderr: its words (429 / rate
 *       limit, a dropped or refused connection is transient, 401...).
 *   <li>tokens, cost: unmeasured here (the final object carries none); the meter measures them.
 *   <li>served model: unmeasured here; the meter reads it.
 *   <li>summary: the final object's response text.
 *   <li>trajectory: none from the CLI (no event stream); harness-core falls back to the wire.
 * </ul>
 *
 * <p>Not supported: follow-ups ({@code --resume} takes no session id: it resumes only the last
 * session). There is no login probe (runs never use the CLI's own login). MCP servers (stdio and
 * streamable HTTP) go to {@code mcpServers} of the per-run config.
 */
public final class ContinueHarness implements Harness {
    /** This adapter's id. */
    public static final String ID = "continue";

    /** The pinned release of {@code @continuedev/cli}. */
    public static final String VERSION = "1.5.47";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public int apiVersion() {
        return API_VERSION; // the harness-api contract this adapter was built against
    }

    @Override
    public CompletionMode completionMode() {
        return CompletionMode.OPAQUE;
    }

    @Override
    public InstallInfo installInfo() {
        return new InstallInfo("cn", List.of("--version"), "npm i -g @continuedev/cli@" + VERSION
                + " (or scripts/install-clis.sh, its own prefix)");
    }

    /**
     * {@inheritDoc}
     *
     * <p>Refuses the CLI's own login (runs read only a per-run config) and a provider that serves
     * neither {@link dev.harness4j.api.ApiStyle#OPENAI} nor {@link dev.harness4j.api.ApiStyle#ANTHROPIC}.
     * {@link #prepare} refuses the same providers with the same text.
     */
    @Override
    public Optional<String> unsupported(ResolvedProvider provider) {
        return ContinueInvocations.unsupported(provider);
    }

    /**
     * {@inheritDoc}
     *
     * @throws dev.harness4j.api.HarnessException when the provider serves neither API
     */
    @Override
    public Invocation prepare(HarnessContext context) {
        return ContinueInvocations.of(context);
    }

    @Override
    public HarnessResult interpret(Execution execution) {
        return ContinueResults.interpret(execution);
    }

    /**
     * {@inheritDoc}
     *
     * <p>3: {@code cn} 1.5.47 retries a 429 on its own schedule (about one second apart, then in
     * rounds), ignoring the wire's {@code Retry-After}; measured against a 429 asking for 90 s, it
     * made 33 requests over 103 s before giving up with {@code "429 ..."}. The runner stops the run
     * at the third 429 in a row, which lets a momentary limit pass, and the run ends {@code
     * rate-limited} with the retry time the meter read from the wire.
     */
    @Override
    public int stopAfterRateLimits() {
        return 3;
    }

    /** True: the run's MCP servers go to {@code mcpServers} of the per-run {@code config.yaml}. */
    @Override
    public boolean supportsMcp() {
        return true;
    }
}
