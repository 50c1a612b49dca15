package dev.harness4j.aider;

import dev.harness4j.api.CompletionMode;
import dev.harness4j.api.Execution;
import dev.harness4j.api.Harness;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.InstallInfo;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.support.Outcomes;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.Secret;
import dev.harness4j.api.Termination;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Runs aider ({@code aider-chat} 0.86.2) headless; OPAQUE. Registered for {@link
 * java.util.ServiceLoader}; id {@code aider}.
 *
 * <pre>{@code
 * RunSpec spec = RunSpec.builder("aider", "gateway").model("gpt-4o")
 *         .prompt("Add a README").baseline(repo)
 *         .option(AiderOptions.EDIT_FORMAT, "diff")      // whole (default) | diff | udiff
 *         .option(AiderOptions.AUTO_COMMITS, "false")    // default true
 *         .build();
 * }</pre>
 *
 * <p>aider reaches models through LiteLLM, so it runs on a provider that serves OpenAI Chat
 * Completions ({@code openai/<model>}), Anthropic Messages ({@code anthropic/<model>}) or Google's
 * Gemini API ({@code gemini/<model>}); a provider serving several styles gets OpenAI chat, then
 * Anthropic, then Gemini ({@link AiderRoute}). Any other provider is refused before anything
 * starts ({@link #unsupported}).
 * See {@link AiderLaunch} for how it is started (prompt file, scratch {@code HOME}, {@code
 * .aider*} kept out of git) and {@link AiderOutput} for how its output is read. The system prompt,
 * when given, reaches aider as a read-only conventions file ({@code --read}); aider has no turn
 * limit, so {@link dev.harness4j.api.Limits#maxTurns()} is not passed on.
 *
 * <p>Outcome: a guard stop or start failure wins; then the error aider's output shows it gave up
 * on (rate limit, auth, context overflow, bad request, transient; its exit code is 0 for those);
 * then the exit code and git (auto-commits move HEAD; without them the tree is dirty). A rate
 * limit's reset time is the wait its error text names ({@code Please try again in 20s}) counted
 * from the end of the process. Tokens are the sum of its {@code Tokens:} lines, labelled an
 * estimate when aider streamed (it then counts with its own tokenizer), and cost its last session
 * cost; a request the endpoint rejected is no usage ({@link UsageLines}); which model answered is
 * unmeasured (aider does not print it).
 *
 * <p>No login probe: aider has no login of its own (it reaches its model only with the endpoint
 * and key the provider gives), so {@code requireLogin} never refuses it and {@code meta.json}'s
 * {@code login} is {@code unknown}; a provider that is the CLI's own login is refused by {@link
 * #prepare}.
 */
public final class AiderHarness implements Harness {
    /** This adapter's id. */
    public static final String ID = "aider";

    /** The pinned aider version. */
    public static final String VERSION = "0.86.2";

    private static final int MAX_REASON_CHARS = 500;

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
        return new InstallInfo("aider", List.of("--version"), "pip install aider-chat==" + VERSION);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Refuses the CLI's own login (aider has none), a provider that serves none of OpenAI chat,
     * Anthropic and Gemini, and an Anthropic-only provider whose key must go as a bearer token
     * (aider's LiteLLM sends it as {@code x-api-key}). {@link #prepare} refuses the same
     * providers with the same text.
     */
    @Override
    public Optional<String> unsupported(ResolvedProvider provider) {
        return AiderRoute.unsupported(provider);
    }

    /**
     * False: aider 0.86 has no MCP client (it edits files from the model's text, through no tool
     * calls), so the runner refuses a run with MCP servers before anything is written.
     */
    @Override
    public boolean supportsMcp() {
        return false;
    }

    @Override
    public Invocation prepare(HarnessContext context) {
        return AiderLaunch.invocation(context);
    }

    @Override
    public HarnessResult interpret(Execution execution) {
        AiderOutput output = new AiderOutput();
        execution.forEachStdoutLine(output::accept);
        execution.forEachStderrLine(output::accept);

        Outcome outcome;
        String reason;
        Instant retryAt = null;
        Termination termination = execution.termination();
        Outcome imposed = Outcomes.fromTermination(termination).orElse(null);
        if (imposed != null) {
            outcome = imposed;
            reason = termination.kind() == Termination.Kind.START_FAILED
                    ? "aider could not be started" + suffix(termination.reason())
                    : "aider was stopped: " + (termination.reason() == null ? termination.kind() : termination.reason())
                            + output.finalError().map(f -> "; aider's last model error: " + f.text()).orElse("");
        } else if (output.finalError().isPresent()) {
            outcome = output.finalError().get().outcome();
            reason = "aider gave up on a model call: " + output.finalError().get().text();
            if (outcome == Outcome.RATE_LIMITED) {
                retryAt = retryAt(output.finalError().get().text(), execution);
            }
        } else if (!execution.exitedCleanly()) {
            outcome = Outcome.ERROR;
            List<String> tail = execution.stderrTail(3);
            if (tail.isEmpty()) {
                tail = execution.stdoutTail(3);
            }
            reason = "aider exited with code " + execution.exitCode() + suffix(String.join(" | ", tail));
        } else if (execution.changes().changed()) {
            outcome = Outcome.COMPLETED;
            reason = null;
        } else if (output.softError().isPresent()) {
            outcome = output.softError().get().outcome();
            reason = "aider changed nothing: " + output.softError().get().text();
        } else {
            outcome = Outcome.NO_OP;
            reason = "aider finished without changing the workspace";
        }

        return HarnessResult.builder(outcome, execution.context().model())
                .reason(redact(reason, execution))
                .tokens(output.usage().tokens(AiderOptions.from(execution.context()).stream()))
                .cost(output.usage().cost().orElse(null))
                .retryAt(retryAt)
                .build();
    }

    /**
     * When a rate limit aider gave up on resets: the wait its last error text names ({@code
     * Please try again in 20s}) counted from the end of the process, since aider exits right
     * after giving up. {@code null} when the text names no wait or the end time is unknown;
     * aider never prints the {@code retry-after} header.
     */
    static Instant retryAt(String errorText, Execution execution) {
        if (execution.finishedAt() == null) {
            return null;
        }
        return RetryWaits.in(errorText).map(execution.finishedAt()::plus).orElse(null);
    }

    private static String suffix(String detail) {
        return detail == null || detail.isBlank() ? "" : ": " + detail;
    }

    /** Keeps reasons short and free of the run's secrets (they end up in meta.json). */
    private static String redact(String reason, Execution execution) {
        if (reason == null) {
            return null;
        }
        String out = reason;
        for (String secret : execution.invocation().secretValues()) {
            out = out.replace(secret, Secret.REDACTED);
        }
        Secret key = execution.context().provider().secret();
        if (key != null) {
            out = out.replace(key.reveal(), Secret.REDACTED);
        }
        return out.length() <= MAX_REASON_CHARS ? out : out.substring(0, MAX_REASON_CHARS - 3) + "...";
    }
}
