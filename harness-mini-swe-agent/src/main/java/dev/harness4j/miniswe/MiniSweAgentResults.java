package dev.harness4j.miniswe;

import dev.harness4j.api.Cost;
import dev.harness4j.api.Execution;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.support.Outcomes;
import dev.harness4j.api.ServedModel;
import dev.harness4j.api.TokenUsage;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Translates what a mini-swe-agent run did into a result: its exit status mapped to an outcome,
 * tokens, cost and the answering models from its trajectory file. Reads only the execution's
 * output and the trajectory in the run's scratch dir.
 */
final class MiniSweAgentResults {
    /** The note on a cost mini-swe-agent computed with LiteLLM's local price map. */
    static final String COST_NOTE = "computed by mini-swe-agent from LiteLLM's bundled price map for the model id";

    private MiniSweAgentResults() {}

    static HarnessResult interpret(Execution execution) {
        Path trajectoryFile = execution.context().scratchDir().resolve(MiniSweAgentInvocations.TRAJECTORY_FILE);
        return interpret(execution, Trajectory.read(trajectoryFile));
    }

    static HarnessResult interpret(Execution execution, Optional<Trajectory> trajectory) {
        String requested = execution.context().model();
        Classified c = classify(execution, trajectory.orElse(null));
        Trajectory t = trajectory.orElse(null);
        return HarnessResult.builder(c.outcome(), requested)
                .reason(c.reason())
                .tokens(t == null ? TokenUsage.unmeasured() : tokens(t))
                .cost(t == null ? null : cost(t))
                .servedModel(ServedModel.exact(requested, t == null ? List.of() : t.answeredModels()))
                .summary(t == null ? null : t.lastText())
                .retryAt(c.retryAt())
                .build();
    }

    /**
     * Tokens summed over every model answer in the trajectory. LiteLLM reports OpenAI's {@code
     * prompt_tokens}, which include cached ones; {@link TokenUsage#input()} excludes them.
     * Unmeasured when no answer carried usage, never 0; a figure some answer's usage lacked (cache
     * writes, always, on an OpenAI-style endpoint) is absent.
     */
    static TokenUsage tokens(Trajectory t) {
        if (t.answers() == 0) {
            return TokenUsage.unmeasured();
        }
        Long input = t.promptTokens() == null ? null : Math.max(0, t.promptTokens() - t.cachedTokens());
        return TokenUsage.ofAdapter(input, t.completionTokens(), t.cachedTokens(), t.cacheWriteTokens());
    }

    /**
     * mini-swe-agent's {@code instance_cost} when positive; a model LiteLLM has no price for
     * costs 0 there (cost tracking errors are ignored), which is no measurement: absent.
     */
    static Cost cost(Trajectory t) {
        if (t.cost() == null || t.cost().signum() <= 0) {
            return null;
        }
        return new Cost(t.cost(), Cost.Source.CLI_ESTIMATE, COST_NOTE);
    }

    /** An outcome with its reason and, for a rate limit, when it resets. */
    record Classified(Outcome outcome, String reason, Instant retryAt) {}

    static Classified classify(Execution execution, Trajectory t) {
        Outcome imposed = Outcomes.fromTermination(execution.termination()).orElse(null);
        if (imposed != null) {
            String why = execution.termination().reason() != null ? execution.termination().reason()
                    : "mini-swe-agent " + execution.termination().kind().name().toLowerCase(Locale.ROOT).replace('_', ' ');
            return new Classified(imposed, why, null);
        }
        String status = t == null ? null : t.exitStatus();
        if (status == null || status.equals("Submitted")) {
            Outcome base = Outcomes.opaque(execution);
            if (base == Outcome.ERROR) {
                List<String> tail = execution.stderrTail(5);
                String why = "mini-swe-agent exited with " + execution.exitCode()
                        + (t == null ? " and left no trajectory" : "")
                        + (tail.isEmpty() ? "" : ": " + String.join(" | ", tail));
                return new Classified(Outcome.ERROR, why, null);
            }
            return new Classified(base, null, null);
        }
        return switch (status) {
            case "LimitsExceeded" -> limits(t);
            case "TimeExceeded" -> new Classified(Outcome.TIMEOUT, "mini-swe-agent reached its wall-time limit", null);
            case "RepeatedFormatError" -> new Classified(Outcome.ERROR,
                    "mini-swe-agent stopped: the model's answers repeatedly had no valid bash tool call", null);
            default -> fromException(status, t);
        };
    }

    /** {@code LimitsExceeded}: the step limit when it was reached, else the cost limit. */
    static Classified limits(Trajectory t) {
        boolean steps = t.stepLimit() != null && t.stepLimit() > 0 && t.apiCalls() != null
                && t.apiCalls() >= t.stepLimit();
        return steps
                ? new Classified(Outcome.MAX_TURNS, "mini-swe-agent reached its step limit of " + t.stepLimit(), null)
                : new Classified(Outcome.BUDGET, "mini-swe-agent reached its cost limit at $" + t.cost(), null);
    }

    /**
     * The exception that ended the run, by LiteLLM's class name, refined by the HTTP status the
     * harness4j agent recorded and by context-window wording.
     */
    static Classified fromException(String name, Trajectory t) {
        String text = t.exceptionText() != null ? t.exceptionText() : name;
        String reason = text.startsWith(name) || text.contains(name + ":") ? text : name + ": " + text;
        if (name.equals("ContextWindowExceededError") || Outcomes.mentionsContextOverflow(text)) {
            return new Classified(Outcome.CONTEXT_OVERFLOW, reason, null);
        }
        Outcome outcome = switch (name) {
            case "RateLimitError" -> Outcome.RATE_LIMITED;
            case "AuthenticationError", "PermissionDeniedError" -> Outcome.AUTH;
            case "APIConnectionError", "Timeout", "APITimeoutError", "InternalServerError", "ServiceUnavailableError",
                    "BadGatewayError" -> Outcome.TRANSIENT;
            case "BadRequestError", "NotFoundError", "UnprocessableEntityError", "UnsupportedParamsError" ->
                    Outcome.BAD_REQUEST;
            default -> t.statusCode() != null ? Outcomes.fromHttpStatus(t.statusCode()).orElse(Outcome.ERROR)
                    : Outcome.ERROR;
        };
        return new Classified(outcome, reason, outcome == Outcome.RATE_LIMITED ? retryAt(t) : null);
    }

    /**
     * When a rate limit resets, from the failing response's {@code retry-after-ms} or {@code
     * retry-after} (seconds or an HTTP date) relative to when the failure was recorded (else the
     * response's {@code date}); {@code null} when neither says.
     */
    static Instant retryAt(Trajectory t) {
        Instant at = t.failedAtEpochSeconds() != null
                ? Instant.ofEpochMilli(Math.round(t.failedAtEpochSeconds() * 1000)) : httpDate(t.responseHeaders().get("date"));
        String ms = t.responseHeaders().get("retry-after-ms");
        String s = t.responseHeaders().get("retry-after");
        try {
            if (ms != null && at != null) {
                return at.plusMillis(Math.round(Double.parseDouble(ms.trim())));
            }
            if (s != null) {
                String v = s.trim();
                if (v.matches("\\d+(\\.\\d+)?")) {
                    return at == null ? null : at.plusMillis(Math.round(Double.parseDouble(v) * 1000));
                }
                return httpDate(v);
            }
        } catch (NumberFormatException ignored) {
            // an unreadable header says nothing about the reset time
        }
        return null;
    }

    private static Instant httpDate(String v) {
        if (v == null) {
            return null;
        }
        try {
            return ZonedDateTime.parse(v.trim(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
