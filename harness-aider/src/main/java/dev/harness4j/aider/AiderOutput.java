package dev.harness4j.aider;

import dev.harness4j.api.Outcome;
import dev.harness4j.api.support.Outcomes;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads aider's console output, line by line, for what its exit code does not tell: the error a
 * run gave up on, and its usage lines ({@link UsageLines}). Not thread-safe: one instance reads
 * one run.
 *
 * <p>aider exits 0 after most failures. When a model call fails it prints LiteLLM's exception
 * ({@code litellm.RateLimitError: RateLimitError: OpenAIException - ...}) and, for some, a
 * friendly line ({@code The API provider has rate limited you. ...}); it retries passing
 * failures with a doubling delay ({@code Retrying in 0.2 seconds...}) for about a minute, then
 * gives up after printing the error once more. A context overflow prints {@code Model <name> has
 * hit a token limit!}. So the last error printed is the one the run ended with, unless a later
 * reply succeeded (a {@code Tokens:} line follows), or it was only the commit message that
 * failed ({@code Failed to generate commit message!}).
 */
final class AiderOutput {

    /** An error the run ended with, or a sign that it did nothing useful. */
    record Failure(Outcome outcome, String text) {
        Failure {
            Objects.requireNonNull(outcome, "outcome");
            Objects.requireNonNull(text, "text");
        }
    }

    /**
     * LiteLLM's exception line: {@code litellm.<Name>: ...}. It usually starts a line, but after
     * a connection dropped mid-answer it follows the partial streamed text on the same line
     * ({@code I will crealitellm.APIConnectionError: ...}), so it is searched anywhere; away from
     * the line's start only a known exception name counts.
     */
    private static final Pattern LITELLM = Pattern.compile("litellm\\.(\\w+):");
    private static final Pattern TOKEN_LIMIT = Pattern.compile("^Model \\S+ has hit a token limit!.*$");

    /** LiteLLM exception names (aider's {@code exceptions.EXCEPTIONS}) by the outcome they mean. */
    private static final Map<String, Outcome> LITELLM_ERRORS = Map.ofEntries(
            Map.entry("RateLimitError", Outcome.RATE_LIMITED),
            Map.entry("RouterRateLimitError", Outcome.RATE_LIMITED),
            Map.entry("AuthenticationError", Outcome.AUTH),
            Map.entry("ContextWindowExceededError", Outcome.CONTEXT_OVERFLOW),
            Map.entry("BudgetExceededError", Outcome.BUDGET),
            Map.entry("BadRequestError", Outcome.BAD_REQUEST),
            Map.entry("NotFoundError", Outcome.BAD_REQUEST),
            Map.entry("UnprocessableEntityError", Outcome.BAD_REQUEST),
            Map.entry("UnsupportedParamsError", Outcome.BAD_REQUEST),
            Map.entry("InvalidRequestError", Outcome.BAD_REQUEST),
            Map.entry("JSONSchemaValidationError", Outcome.BAD_REQUEST),
            Map.entry("ContentPolicyViolationError", Outcome.BAD_REQUEST),
            Map.entry("ImageFetchError", Outcome.BAD_REQUEST),
            Map.entry("APIConnectionError", Outcome.TRANSIENT),
            Map.entry("APIError", Outcome.TRANSIENT),
            Map.entry("APIResponseValidationError", Outcome.TRANSIENT),
            Map.entry("InternalServerError", Outcome.TRANSIENT),
            Map.entry("ServiceUnavailableError", Outcome.TRANSIENT),
            Map.entry("BadGatewayError", Outcome.TRANSIENT),
            Map.entry("Timeout", Outcome.TRANSIENT),
            Map.entry("OpenAIError", Outcome.TRANSIENT),
            Map.entry("AzureOpenAIError", Outcome.TRANSIENT));

    /** aider's friendly lines (from {@code aider/exceptions.py}) that refine the LiteLLM line above them. */
    private static final Map<String, Outcome> FRIENDLY = Map.of(
            "The API provider has rate limited you.", Outcome.RATE_LIMITED,
            "The API provider is not able to authenticate you.", Outcome.AUTH,
            "Insufficient credits with the API provider.", Outcome.BUDGET,
            "The API provider has refused the request due to a safety policy", Outcome.BAD_REQUEST);

    private final UsageLines usage = new UsageLines();
    private Failure pending;
    private Failure soft;

    /** Reads one line of stdout or stderr. */
    void accept(String rawLine) {
        String line = rawLine.strip();
        if (line.isEmpty()) {
            return;
        }
        if (usage.accept(line)) {
            if (line.startsWith("Tokens:")) {
                pending = null; // a reply came back: what failed before it was retried successfully
            }
            return;
        }
        if (line.startsWith("Failed to generate commit message!")) {
            pending = null; // only the weak model's commit message failed; aider commits anyway
            return;
        }
        Failure litellm = litellmError(line);
        if (litellm != null) {
            pending = litellm;
            return;
        }
        for (Map.Entry<String, Outcome> e : FRIENDLY.entrySet()) {
            if (line.startsWith(e.getKey())) {
                pending = new Failure(e.getValue(), pending == null ? line : pending.text() + " (" + line + ")");
                return;
            }
        }
        if (TOKEN_LIMIT.matcher(line).matches()) {
            // aider printed its pre-send count of the request the endpoint just rejected: no usage
            usage.retractLast();
            pending = new Failure(Outcome.CONTEXT_OVERFLOW, line + " (the prompt and reply exceeded the model's token limit)");
            return;
        }
        if (line.startsWith("The LLM did not conform to the edit format.")) {
            soft = new Failure(Outcome.ERROR, "the model's reply did not follow aider's edit format, so nothing was applied");
        } else if (line.startsWith("Traceback (most recent call last):")) {
            soft = new Failure(Outcome.ERROR, "aider printed a Python traceback (see the transcript)");
        }
    }

    /** LiteLLM's exception on this line, from its name on; {@code null} when there is none. */
    private static Failure litellmError(String line) {
        Matcher m = LITELLM.matcher(line);
        while (m.find()) {
            Outcome known = LITELLM_ERRORS.get(m.group(1));
            if (known == null && m.start() > 0) {
                continue; // "litellm.x:" inside someone's text is no exception line
            }
            String text = line.substring(m.start());
            Outcome o = known == null ? Outcome.ERROR : known;
            if ((o == Outcome.BAD_REQUEST || o == Outcome.TRANSIENT) && Outcomes.mentionsContextOverflow(text)) {
                o = Outcome.CONTEXT_OVERFLOW;
            }
            return new Failure(o, text);
        }
        return null;
    }

    /** The error the run ended with: one that no later successful reply superseded. */
    Optional<Failure> finalError() {
        return Optional.ofNullable(pending);
    }

    /** A sign that a run which changed nothing failed rather than chose to change nothing. */
    Optional<Failure> softError() {
        return Optional.ofNullable(soft);
    }

    UsageLines usage() {
        return usage;
    }
}
