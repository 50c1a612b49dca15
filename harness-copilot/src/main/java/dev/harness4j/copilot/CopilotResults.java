package dev.harness4j.copilot;

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
 * Translates what a Copilot CLI run did into a result: the opaque outcome rule refined by its
 * {@code session.error} event, the last assistant text as the summary, the {@code result} event's
 * session id. Tokens and the answering model are unmeasured here (Copilot CLI's JSONL prints no
 * token counts in BYOK mode; the meter measures both). Pure: reads only the execution's files.
 */
final class CopilotResults {
    private CopilotResults() {}

    static HarnessResult interpret(Execution execution) {
        CopilotEvents events = CopilotEvents.of(execution);
        String requested = execution.context().model();
        Classified c = classify(execution, events);
        boolean failed = c.outcome() != Outcome.COMPLETED && c.outcome() != Outcome.NO_OP;
        return HarnessResult.builder(c.outcome(), requested)
                .reason(c.reason())
                .tokens(TokenUsage.unmeasured())
                .servedModel(ServedModel.unmeasured(requested))
                .summary(failed ? null : events.lastMessage())
                .retryAt(c.retryAt())
                .sessionId(events.sessionId())
                .build();
    }

    /** An outcome with its reason and, for a rate limit, when it resets. */
    record Classified(Outcome outcome, String reason, Instant retryAt) {}

    static Classified classify(Execution execution, CopilotEvents events) {
        Outcome imposed = Outcomes.fromTermination(execution.termination()).orElse(null);
        if (imposed != null) {
            String why = execution.termination().reason() != null ? execution.termination().reason()
                    : "copilot " + execution.termination().kind().name().toLowerCase(Locale.ROOT).replace('_', ' ');
            return new Classified(imposed, why, null);
        }
        if (events.errorMessage() != null && (execution.exitCode() != 0 || events.resultExitCode() > 0)) {
            return fromFailure(events.errorMessage(), events.errorStatus(), execution);
        }
        Outcome base = Outcomes.opaque(execution);
        if (base == Outcome.ERROR) {
            List<String> tail = execution.stderrTail(5);
            String why = "copilot exited with " + execution.exitCode()
                    + (tail.isEmpty() ? " and printed no error" : ": " + String.join(" | ", tail));
            return new Classified(Outcome.ERROR, why, null);
        }
        return new Classified(base, null, null);
    }

    /**
     * The class of the error the {@code session.error} event reported: a context-window message,
     * else its {@code statusCode} (429 rate-limited, 401/403 auth, 5xx transient, other 4xx
     * bad-request), else a dropped stream or connection (transient), else its words.
     */
    static Classified fromFailure(String message, int status, Execution execution) {
        if (Outcomes.mentionsContextOverflow(message)) {
            return new Classified(Outcome.CONTEXT_OVERFLOW, message, null);
        }
        Outcome o = status > 0 ? Outcomes.fromHttpStatus(status).orElse(null) : null;
        if (o == null) {
            String t = message.toLowerCase(Locale.ROOT);
            o = mentionsDroppedConnection(t) ? Outcome.TRANSIENT : Outcomes.fromText(message).orElse(Outcome.ERROR);
        }
        Instant retryAt = o == Outcome.RATE_LIMITED ? Outcomes.retryAt(execution, message).orElse(null) : null;
        return new Classified(o, message, retryAt);
    }

    /** Node's words for a stream or connection that broke before the answer was complete. */
    static boolean mentionsDroppedConnection(String lower) {
        return lower.contains("terminated") || lower.contains("other side closed") || lower.contains("fetch failed")
                || lower.contains("connection error") || lower.contains("econnreset") || lower.contains("socket hang up")
                || lower.contains("premature close") || lower.contains("network error")
                || lower.contains("could not connect");
    }
}
