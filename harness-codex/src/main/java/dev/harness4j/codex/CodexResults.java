package dev.harness4j.codex;

import dev.harness4j.api.Execution;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.support.Outcomes;
import dev.harness4j.api.ServedModel;
import dev.harness4j.api.TokenUsage;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Translates what a Codex run did into a result: the opaque outcome rule refined by {@code
 * turn.failed} and the HTTP statuses in the log, tokens summed over {@code turn.completed}, the
 * answering model from the logged Responses API events, the last agent message as the summary.
 * Pure: reads only the execution's files.
 */
final class CodexResults {
    /** {@code last status: 429 Too Many Requests}, {@code unexpected status 401 Unauthorized}. */
    private static final Pattern STATUS = Pattern.compile("status:? (\\d{3})\\b");

    private CodexResults() {}

    static HarnessResult interpret(Execution execution) {
        CodexEvents events = CodexEvents.of(execution);
        String requested = execution.context().model();
        Classified c = classify(execution, events);
        return HarnessResult.builder(c.outcome(), requested)
                .reason(c.reason())
                .tokens(tokens(events))
                .servedModel(ServedModel.exact(requested, events.answeredModels()))
                .summary(events.lastMessage())
                .retryAt(c.retryAt())
                .sessionId(events.threadId())
                .build();
    }

    /**
     * Tokens summed over every {@code turn.completed}. Codex reports OpenAI's {@code input_tokens},
     * which include the cached ones; {@link TokenUsage#input()} excludes them. Unmeasured when no
     * turn completed (a failed turn reports no usage), never 0; cache writes are absent unless the
     * server reported them ({@link CodexEvents#reportedCacheWrites}).
     */
    static TokenUsage tokens(CodexEvents events) {
        if (events.turns() == 0) {
            return TokenUsage.unmeasured();
        }
        return TokenUsage.ofAdapter(Math.max(0, events.inputTokens() - events.cachedInputTokens()),
                events.outputTokens(), events.cachedInputTokens(), events.reportedCacheWrites());
    }

    /** An outcome with its reason and, for a rate limit, when it resets. */
    record Classified(Outcome outcome, String reason, Instant retryAt) {}

    static Classified classify(Execution execution, CodexEvents events) {
        Outcome imposed = Outcomes.fromTermination(execution.termination()).orElse(null);
        if (imposed != null) {
            String why = execution.termination().reason() != null ? execution.termination().reason()
                    : "codex " + execution.termination().kind().name().toLowerCase(Locale.ROOT).replace('_', ' ');
            return new Classified(imposed, why, null);
        }
        String failure = events.failure() != null ? events.failure()
                : execution.exitedCleanly() ? null : events.lastError();
        if (failure != null) {
            return fromFailure(failure, events);
        }
        Outcome base = Outcomes.opaque(execution);
        if (base == Outcome.ERROR) {
            List<String> tail = execution.stderrTail(5);
            String why = "codex exited with " + execution.exitCode()
                    + (tail.isEmpty() ? " and printed no error event" : ": " + String.join(" | ", tail));
            return new Classified(Outcome.ERROR, why, null);
        }
        return new Classified(base, null, null);
    }

    /**
     * The class of the error that failed the turn: its context-window wording, else the HTTP
     * status it names (or the last failed response the log recorded), else a dropped stream or
     * connection (transient), else {@code error}.
     */
    static Classified fromFailure(String message, CodexEvents events) {
        if (Outcomes.mentionsContextOverflow(message)) {
            return new Classified(Outcome.CONTEXT_OVERFLOW, message, null);
        }
        Integer status = null;
        Matcher m = STATUS.matcher(message);
        if (m.find()) {
            status = Integer.parseInt(m.group(1));
        } else if (events.lastFailedResponse() != null && !mentionsDroppedConnection(message)) {
            status = events.lastFailedResponse().status();
        }
        if (status != null) {
            Outcome byStatus = Outcomes.fromHttpStatus(status).orElse(Outcome.ERROR);
            Instant retryAt = byStatus == Outcome.RATE_LIMITED ? retryAt(events, status) : null;
            return new Classified(byStatus, message, retryAt);
        }
        if (mentionsDroppedConnection(message)) {
            return new Classified(Outcome.TRANSIENT, message, null);
        }
        return new Classified(Outcome.ERROR, message, null);
    }

    /** Codex's words for a stream or connection that broke before the answer was complete. */
    static boolean mentionsDroppedConnection(String message) {
        String t = message.toLowerCase(Locale.ROOT);
        return t.contains("stream disconnected") || t.contains("transport error") || t.contains("network error")
                || t.contains("connection reset") || t.contains("connection refused")
                || t.contains("error sending request") || t.contains("idle timeout");
    }

    /**
     * When a rate limit resets, from the last logged response with that status: its {@code
     * retry-after-ms}, or {@code retry-after} (seconds or an HTTP date), relative to the log
     * line's time (else the response's {@code date}); {@code null} when neither says.
     */
    static Instant retryAt(CodexEvents events, int status) {
        for (int i = events.responses().size() - 1; i >= 0; i--) {
            CodexEvents.HttpResponse r = events.responses().get(i);
            if (r.status() == status) {
                return retryAt(r);
            }
        }
        return null;
    }

    static Instant retryAt(CodexEvents.HttpResponse r) {
        Instant at = r.at();
        if (at == null && r.headers().containsKey("date")) {
            at = httpDate(r.headers().get("date"));
        }
        String ms = r.headers().get("retry-after-ms");
        String s = r.headers().get("retry-after");
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
        try {
            return ZonedDateTime.parse(v.trim(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
