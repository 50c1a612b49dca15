package dev.harness4j.gemini;

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
 * Translates what a Gemini CLI run did into a result: the opaque outcome rule refined by the
 * {@code result} event's error and the HTTP statuses on stderr, tokens from the {@code result}
 * event's stats, the answering models from its per-model stats, the final answer as the summary.
 * Pure: reads only the execution's files.
 */
final class GeminiResults {
    private GeminiResults() {}

    static HarnessResult interpret(Execution execution) {
        GeminiEvents events = GeminiEvents.of(execution);
        String requested = execution.context().model();
        Classified c = classify(execution, events);
        List<String> answered = events.stats() == null ? List.of() : events.stats().answeredModels();
        return HarnessResult.builder(c.outcome(), requested)
                .reason(c.reason())
                .tokens(tokens(events))
                .servedModel(ServedModel.exact(requested, answered))
                .summary(events.lastMessage())
                .retryAt(c.retryAt())
                .sessionId(events.sessionId())
                .build();
    }

    /**
     * The {@code result} event's figures: input = {@code input} (uncached), cache read = {@code
     * cached}, output = {@code total_tokens - input_tokens} (Google's total counts thinking, the
     * CLI's {@code output_tokens} do not), never less than {@code output_tokens}. Gemini reports
     * no cache writes. Unmeasured without a result event or when no model call was answered
     * (the CLI then reports zeros), never 0; a field the CLI did not print is unmeasured too.
     */
    static TokenUsage tokens(GeminiEvents events) {
        GeminiEvents.Stats s = events.stats();
        if (s == null || !s.anyAnswered()) {
            return TokenUsage.unmeasured();
        }
        return TokenUsage.ofAdapter(s.input(), output(s), s.cached(), null);
    }

    /**
     * {@code total_tokens - input_tokens} (candidates, thinking and any tool-use prompt tokens:
     * the meter counts the last as input), never less than {@code output_tokens}; what is known
     * of the two when a field is missing, {@code null} when neither can be told.
     */
    static Long output(GeminiEvents.Stats s) {
        Long fromTotal = s.totalTokens() == null || s.inputTokens() == null ? null
                : Math.max(0, s.totalTokens() - s.inputTokens());
        if (fromTotal == null) {
            return s.outputTokens();
        }
        return s.outputTokens() == null ? fromTotal : Math.max(s.outputTokens(), fromTotal);
    }

    /** An outcome with its reason and, for a rate limit, when it resets. */
    record Classified(Outcome outcome, String reason, Instant retryAt) {}

    static Classified classify(Execution execution, GeminiEvents events) {
        Outcome imposed = Outcomes.fromTermination(execution.termination()).orElse(null);
        if (imposed != null) {
            String why = execution.termination().reason() != null ? execution.termination().reason()
                    : "gemini " + execution.termination().kind().name().toLowerCase(Locale.ROOT).replace('_', ' ');
            return new Classified(imposed, why, null);
        }
        String failure = events.failure();
        if (failure != null || (events.result() && !events.success())) {
            String message = failure != null ? failure : "gemini reported an error of type " + events.errorType();
            return fromFailure(execution, message, events);
        }
        Outcome base = Outcomes.opaque(execution);
        if (base == Outcome.ERROR) {
            List<String> tail = execution.stderrTail(5);
            String why = "gemini exited with " + execution.exitCode()
                    + (tail.isEmpty() ? " and printed no result event" : ": " + String.join(" | ", tail));
            return new Classified(Outcome.ERROR, why, null);
        }
        return new Classified(base, null, null);
    }

    /**
     * The class of the error that ended the run: its context-window wording, else a dropped
     * stream or connection (transient), else the HTTP status of the last failed request stderr
     * names, read with the message ({@link Outcomes#fromHttpAnswer}: Google's 400 for a key it does
     * not know is {@code auth}), else what the text says ({@link Outcomes#fromText}), else {@code error}.
     */
    static Classified fromFailure(Execution execution, String message, GeminiEvents events) {
        if (Outcomes.mentionsContextOverflow(message)) {
            return new Classified(Outcome.CONTEXT_OVERFLOW, message, null);
        }
        if (mentionsDroppedConnection(message)) {
            return new Classified(Outcome.TRANSIENT, message, null);
        }
        Outcome byStatus = events.lastStatus() == null ? null
                : Outcomes.fromHttpAnswer(events.lastStatus(), message).orElse(null);
        Outcome outcome = byStatus != null ? byStatus : Outcomes.fromText(message).orElse(Outcome.ERROR);
        String reason = byStatus != null && !message.contains(String.valueOf(events.lastStatus()))
                ? message + " (HTTP " + events.lastStatus() + ")" : message;
        Instant retryAt = outcome == Outcome.RATE_LIMITED ? Outcomes.retryAt(execution, message).orElse(null) : null;
        return new Classified(outcome, reason, retryAt);
    }

    /** Gemini CLI's (undici's) words for a stream or connection that broke before the answer was complete. */
    static boolean mentionsDroppedConnection(String message) {
        String t = message.toLowerCase(Locale.ROOT);
        return t.contains("api error: terminated") || t.contains("other side closed") || t.contains("fetch failed")
                || t.contains("und_err_socket") || t.contains("econnreset") || t.contains("socket hang up")
                || t.contains("connection reset") || t.contains("econnrefused") || t.contains("premature close");
    }
}
