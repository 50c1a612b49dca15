package dev.harness4j.qwen;

import dev.harness4j.api.Execution;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.support.Outcomes;
import dev.harness4j.api.ServedModel;
import dev.harness4j.api.TokenUsage;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Translates what a Qwen Code run did into a result: the opaque outcome rule refined by the
 * {@code result} envelope's error, tokens from the envelope's totals, the envelope's text as the
 * summary. The answering model is unmeasured here: Qwen Code's events repeat the requested model
 * whatever answered (the meter reads the answering one). Pure: reads only the execution's files.
 */
final class QwenResults {
    /** {@code [API Error: 401 invalid x-api-key]}, {@code status: 429}, {@code status code 500}. */
    private static final Pattern STATUS = Pattern.compile("(?:API Error: |status(?: code)?:? )(\\d{3})\\b");

    private QwenResults() {}

    static HarnessResult interpret(Execution execution) {
        QwenEvents events = QwenEvents.of(execution);
        String requested = execution.context().model();
        Classified c = classify(execution, events);
        boolean failed = c.outcome() != Outcome.COMPLETED && c.outcome() != Outcome.NO_OP;
        String summary = failed ? null : events.resultText() != null && !events.resultText().isBlank()
                ? events.resultText().strip() : events.lastMessage();
        return HarnessResult.builder(c.outcome(), requested)
                .reason(c.reason())
                .tokens(tokens(events))
                .servedModel(ServedModel.unmeasured(requested))
                .summary(summary)
                .retryAt(c.retryAt())
                .sessionId(events.sessionId())
                .build();
    }

    /**
     * The envelope's totals (every model call of the run, side requests included); else the
     * assistant messages' usage summed (a run stopped before its envelope); unmeasured when
     * neither has a figure above 0 (a failed request prints zeros). A field Qwen Code did not
     * print is unmeasured ({@code null}), never 0; input needs both {@code input_tokens} and
     * {@code cache_read_input_tokens}. {@link TokenUsage#input()}
     * excludes the cache reads Qwen Code's {@code input_tokens} include.
     */
    static TokenUsage tokens(QwenEvents events) {
        QwenEvents.Usage u = events.totals() != null && events.totals().any() ? events.totals()
                : events.summed() != null && events.summed().any() ? events.summed() : null;
        if (u == null) {
            return TokenUsage.unmeasured();
        }
        // uncached input needs both figures: without the cache reads it cannot be told apart
        Long input = u.input() == null || u.cacheRead() == null ? null : Math.max(0, u.input() - u.cacheRead());
        return TokenUsage.ofAdapter(input, u.output(), u.cacheRead(), null);
    }

    /** An outcome with its reason and, for a rate limit, when it resets. */
    record Classified(Outcome outcome, String reason, Instant retryAt) {}

    static Classified classify(Execution execution, QwenEvents events) {
        Outcome imposed = Outcomes.fromTermination(execution.termination()).orElse(null);
        if (imposed != null) {
            String why = execution.termination().reason() != null ? execution.termination().reason()
                    : "qwen " + execution.termination().kind().name().toLowerCase(Locale.ROOT).replace('_', ' ');
            return new Classified(imposed, why, null);
        }
        if (events.resultSeen() && (events.resultError() || !"success".equals(events.resultSubtype()))) {
            String message = events.errorMessage() != null ? events.errorMessage()
                    : events.resultText() != null ? events.resultText()
                    : "qwen ended with " + events.resultSubtype();
            return fromFailure(message, execution);
        }
        Outcome base = Outcomes.opaque(execution);
        if (base == Outcome.ERROR) {
            List<String> tail = execution.stderrTail(5);
            String why = "qwen exited with " + execution.exitCode()
                    + (tail.isEmpty() ? " and printed no result" : ": " + String.join(" | ", tail));
            return new Classified(Outcome.ERROR, why, null);
        }
        return new Classified(base, null, null);
    }

    /**
     * The class of the error the envelope reported: its max-turns or context-window wording,
     * else the HTTP status it names, else a dropped stream or connection (transient), else
     * whatever its words say ({@link Outcomes#fromText}), else {@code error}.
     */
    static Classified fromFailure(String message, Execution execution) {
        String t = message.toLowerCase(Locale.ROOT);
        if (t.contains("max session turns")) {
            return new Classified(Outcome.MAX_TURNS, message, null);
        }
        if (Outcomes.mentionsContextOverflow(message)) {
            return new Classified(Outcome.CONTEXT_OVERFLOW, message, null);
        }
        Matcher m = STATUS.matcher(message);
        if (m.find()) {
            Outcome byStatus = Outcomes.fromHttpStatus(Integer.parseInt(m.group(1))).orElse(Outcome.ERROR);
            Instant retryAt = byStatus == Outcome.RATE_LIMITED ? Outcomes.retryAt(execution, message).orElse(null) : null;
            return new Classified(byStatus, message, retryAt);
        }
        if (mentionsDroppedConnection(t)) {
            return new Classified(Outcome.TRANSIENT, message, null);
        }
        Outcome byText = Outcomes.fromText(message).orElse(Outcome.ERROR);
        Instant retryAt = byText == Outcome.RATE_LIMITED ? Outcomes.retryAt(execution, message).orElse(null) : null;
        return new Classified(byText, message, retryAt);
    }

    /** Node's (undici's) words for a stream or connection that broke before the answer was complete. */
    static boolean mentionsDroppedConnection(String lower) {
        return lower.contains("terminated") || lower.contains("other side closed") || lower.contains("und_err_socket")
                || lower.contains("fetch failed") || lower.contains("connection error") || lower.contains("econnreset")
                || lower.contains("econnrefused") || lower.contains("socket hang up") || lower.contains("premature close");
    }
}
