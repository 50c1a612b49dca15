package dev.harness4j.cline;

import dev.harness4j.api.Execution;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.support.Outcomes;
import dev.harness4j.api.ServedModel;
import dev.harness4j.api.TokenUsage;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * Translates what a Cline run did into a result: the opaque outcome rule refined by the {@code
 * run_result}'s {@code finishReason} and the last error event's {@code errorClass} and message,
 * tokens from the {@code run_result}'s usage, its text as the summary. Pure: reads only the
 * execution's files.
 */
final class ClineResults {
    private ClineResults() {}

    static HarnessResult interpret(Execution execution) {
        ClineEvents events = ClineEvents.of(execution);
        String requested = execution.context().model();
        Classified c = classify(execution, events);
        return HarnessResult.builder(c.outcome(), requested)
                .reason(c.reason())
                .tokens(tokens(events))
                .servedModel(ServedModel.unmeasured(requested))
                .summary(failed(events) ? null : events.resultText())
                .retryAt(c.retryAt())
                .sessionId(events.taskId())
                .build();
    }

    /**
     * The {@code run_result}'s usage ({@code aggregateUsage}, which counts every model call of the
     * run), input without the cache reads its {@code inputTokens} include: unmeasured without one
     * or when it holds only zeros (no request was answered).
     */
    static TokenUsage tokens(ClineEvents events) {
        ClineEvents.Usage u = events.usage();
        if (u == null || !u.any()) {
            return TokenUsage.unmeasured();
        }
        return TokenUsage.ofAdapter(u.uncachedInput(), u.output(), u.cacheRead(), u.cacheWrite());
    }

    private static boolean failed(ClineEvents events) {
        return events.resultSeen() && "error".equals(events.finishReason());
    }

    /** An outcome with its reason and, for a rate limit, when it resets. */
    record Classified(Outcome outcome, String reason, Instant retryAt) {}

    static Classified classify(Execution execution, ClineEvents events) {
        Outcome imposed = Outcomes.fromTermination(execution.termination()).orElse(null);
        if (imposed != null) {
            String why = execution.termination().reason() != null ? execution.termination().reason()
                    : "cline " + execution.termination().kind().name().toLowerCase(Locale.ROOT).replace('_', ' ');
            return new Classified(imposed, why, null);
        }
        if (failed(events) || (events.errorMessage() != null && execution.exitCode() != 0)) {
            String message = events.errorMessage() != null ? events.errorMessage()
                    : events.resultText() != null ? events.resultText() : "cline ended with an error";
            return fromFailure(message, events.errorClass(), execution);
        }
        Outcome base = Outcomes.opaque(execution);
        if (base == Outcome.ERROR) {
            List<String> tail = execution.stderrTail(5);
            String why = "cline exited with " + execution.exitCode()
                    + (tail.isEmpty() ? " and printed no result" : ": " + String.join(" | ", tail));
            return new Classified(Outcome.ERROR, why, null);
        }
        return new Classified(base, null, null);
    }

    /**
     * The class of the error that ended the run: a context-window wording, else Cline's own
     * {@code errorClass} ({@code auth}, {@code rate_limit}, {@code network}...), else a dropped
     * connection (transient), else what the words say ({@link Outcomes#fromText}), else {@code error}.
     */
    static Classified fromFailure(String message, String errorClass, Execution execution) {
        if (Outcomes.mentionsContextOverflow(message)) {
            return new Classified(Outcome.CONTEXT_OVERFLOW, message, null);
        }
        Outcome outcome = byErrorClass(errorClass);
        if (outcome == null && mentionsDroppedConnection(message.toLowerCase(Locale.ROOT))) {
            outcome = Outcome.TRANSIENT;
        }
        if (outcome == null) {
            outcome = Outcomes.fromText(message).orElse(Outcome.ERROR);
        }
        Instant retryAt = outcome == Outcome.RATE_LIMITED ? Outcomes.retryAt(execution, message).orElse(null) : null;
        return new Classified(outcome, message, retryAt);
    }

    /** Cline's {@code errorClass} of an error event, or {@code null} for {@code unknown} and names not known here. */
    static Outcome byErrorClass(String errorClass) {
        if (errorClass == null) {
            return null;
        }
        return switch (errorClass.toLowerCase(Locale.ROOT)) {
            case "auth", "authentication", "unauthorized" -> Outcome.AUTH;
            case "rate_limit", "rate-limit", "ratelimit", "rate_limited" -> Outcome.RATE_LIMITED;
            case "network", "connection", "timeout", "server", "overloaded" -> Outcome.TRANSIENT;
            case "context_window", "context_overflow", "context" -> Outcome.CONTEXT_OVERFLOW;
            case "bad_request", "invalid_request" -> Outcome.BAD_REQUEST;
            default -> null;
        };
    }

    /** Bun's words for a stream or connection that broke before the answer was complete. */
    static boolean mentionsDroppedConnection(String lower) {
        return lower.contains("connection") || lower.contains("socket") || lower.contains("econnreset")
                || lower.contains("terminated") || lower.contains("premature close") || lower.contains("cannot connect")
                || lower.contains("unable to connect") || lower.contains("fetch failed");
    }
}
