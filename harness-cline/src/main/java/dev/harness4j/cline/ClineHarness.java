package dev.harness4j.cline;

import dev.harness4j.api.CompletionMode;
import dev.harness4j.api.Execution;
import dev.harness4j.api.Harness;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.InstallInfo;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.TrajectoryStep;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Runs Cline's CLI ({@code cline} on npm: a node wrapper around the Bun-compiled binary of {@code
 * @cline/cli-linux-x64}) headless on an OpenAI-compatible endpoint, with a per-run data dir, reading
 * outcome, tokens and the summary from its {@code --json} events.
 *
 * <h2>Invocation</h2>
 * <pre>
 * cline --json --data-dir &lt;scratch&gt;/cline/data --cwd &lt;workspace&gt; "&lt;prompt&gt;"
 * </pre>
 * Cline runs non-interactively on a prompt argument (act mode; auto-approve is its default). The
 * endpoint ({@code baseUrl} = the provider's {@code /v1} URL), model and key go in {@code
 * <data-dir>/settings/providers.json}, in the shape {@code cline auth -p openai} writes: Cline
 * 3.0.65 reads an OpenAI-compatible key from nowhere else ({@code CLINE_API_KEY} is the key of its
 * own account), so the key is in that file, in the run's scratch dir, owner-only (0600). {@code
 * HOME} and {@code TMPDIR} point into the scratch dir; {@code CLINE_*} and {@code OPENAI_*} are
 * removed from the inherited environment. Cline looks up {@code data.cline.bot} and {@code
 * otel.cline.bot} on every run (telemetry); no setting or variable found in 3.0.65 stops that
 * ({@code telemetryOptOut} in its global settings does not), so it is left to the sandbox, whose
 * network reaches only the meter. The run's system prompt and max turns are not passed.
 *
 * <h2>What is measured</h2>
 * <ul>
 *   <li>outcome: exit code (1 on an API error) and git changes (completed / no-op / error), refined
 *       by the {@code run_result}'s {@code finishReason} {@code error} and the last error event:
 *       its {@code errorClass} ({@code auth}...), else its words (429 / rate limit, a dropped or
 *       refused connection is transient).
 *   <li>tokens: the {@code run_result}'s {@code aggregateUsage}; unmeasured when it holds only zeros.
 *   <li>cost: unmeasured (its {@code totalCost} is Cline's price list, not the endpoint's bill).
 *   <li>served model: unmeasured here ({@code run_result.model} is the requested one); the meter reads it.
 *   <li>summary: the {@code run_result}'s {@code text}.
 * </ul>
 *
 * <p>Not supported: follow-ups (Cline 3.0.65 refuses {@code --id <session>} with {@code --json},
 * a prompt argument or piped stdin alike: "JSON output mode requires a prompt argument or piped
 * stdin"). There is no login probe (runs never use the CLI's own login). MCP servers (stdio and
 * HTTP) go to a per-run {@code cline_mcp_settings.json}; Cline offers their tools as {@code
 * <server>__<tool>}.
 */
public final class ClineHarness implements Harness {
    /** This adapter's id. */
    public static final String ID = "cline";

    /** The pinned release. */
    public static final String VERSION = "3.0.65";

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
        return new InstallInfo("cline", List.of("--version"), "npm i -g cline@" + VERSION
                + " (or scripts/install-clis.sh, its own prefix)");
    }

    /**
     * {@inheritDoc}
     *
     * <p>Refuses the CLI's own login (runs use a private data dir) and a provider that does not
     * serve {@link dev.harness4j.api.ApiStyle#OPENAI}. {@link #prepare} refuses the same providers
     * with the same text.
     */
    @Override
    public Optional<String> unsupported(ResolvedProvider provider) {
        return ClineInvocations.unsupported(provider);
    }

    /**
     * {@inheritDoc}
     *
     * @throws dev.harness4j.api.HarnessException when the provider does not serve the OpenAI API
     */
    @Override
    public Invocation prepare(HarnessContext context) {
        return ClineInvocations.of(context);
    }

    @Override
    public HarnessResult interpret(Execution execution) {
        return ClineResults.interpret(execution);
    }

    /**
     * True: the run's MCP servers go to {@code mcpServers} of a per-run {@code
     * cline_mcp_settings.json} ({@code CLINE_MCP_SETTINGS_PATH}).
     */
    @Override
    public boolean supportsMcp() {
        return true;
    }

    /** The steps from the {@code --json} events ({@link ClineTrajectory}). */
    @Override
    public Optional<Stream<TrajectoryStep>> trajectory(Execution execution) {
        return Optional.of(ClineTrajectory.of(execution));
    }
}
