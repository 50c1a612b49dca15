package dev.harness4j.opencode;

import dev.harness4j.api.Cost;
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

/**
 * Translates what an opencode run did into a result: the opaque outcome rule refined by the
 * {@code error} events, tokens and configured-price cost summed over {@code step_finish} events,
 * the last {@code text} event as the summary. Pure: reads only the execution's files.
 */
final class OpencodeResults {
    /** The note on a cost opencode summed from the prices the per-run config gave the model. */
    static final String COST_NOTE = "summed by opencode from the prices the run's options wrote into its config";

    private OpencodeResults() {}

    static HarnessResult interpret(Execution execution) {
        OpencodeEvents events = OpencodeEvents.of(execution);
        String requested = execution.context().model();
        Classified c = classify(execution, events);

        HarnessResult.Builder b = HarnessResult.builder(c.outcome(), requested)
                .reason(c.reason())
                .tokens(tokens(events, OpencodeConfig.npmPackage(execution.context().provider())))
                .cost(cost(execution, events))
                // opencode's events name no model: the assistant message carries the model that was
                // asked for, never the one the endpoint says answered
                .servedModel(ServedModel.unmeasured(requested))
                .summary(events.lastText())
                .sessionId(events.sessionId())
                .retryAt(c.retryAt());
        return b.build();
    }

    /**
     * Tokens summed over every {@code step_finish}. opencode reports {@code output} without the
     * reasoning tokens and {@code reasoning} apart; {@link TokenUsage#output()} counts both.
     * opencode's {@code input} already excludes cache reads and writes. Unmeasured when no step
     * finished (never 0); a figure no step carried is absent.
     *
     * <p>Cache writes are absent on an OpenAI-compatible endpoint ({@code npmPackage} {@value
     * OpencodeConfig#NPM_OPENAI_COMPATIBLE}): Chat Completions usage has no cache-write figure,
     * and opencode prints {@code cache.write: 0} for every step all the same.
     */
    static TokenUsage tokens(OpencodeEvents events, String npmPackage) {
        if (events.steps() == 0) {
            return TokenUsage.unmeasured();
        }
        Long output = events.output() == null ? null
                : events.output() + (events.reasoning() == null ? 0 : events.reasoning());
        Long cacheWrite = OpencodeConfig.NPM_OPENAI_COMPATIBLE.equals(npmPackage) ? null : events.cacheWrite();
        return TokenUsage.ofAdapter(events.input(), output, events.cacheRead(), cacheWrite);
    }

    /**
     * The cost opencode summed, only when the run's options priced the model: otherwise opencode
     * prices the custom model at 0, which is no measurement, so the cost is absent.
     */
    static Cost cost(Execution execution, OpencodeEvents events) {
        if (events.steps() == 0 || OpencodeConfig.prices(execution.context()).isEmpty()) {
            return null;
        }
        return new Cost(events.cost(), Cost.Source.CONFIGURED_PRICE, COST_NOTE);
    }

    /** An outcome with its reason and, for a rate limit, when it resets. */
    record Classified(Outcome outcome, String reason, Instant retryAt) {}

    static Classified classify(Execution execution, OpencodeEvents events) {
        Outcome imposed = Outcomes.fromTermination(execution.termination()).orElse(null);
        if (imposed != null) {
            String why = execution.termination().reason() != null ? execution.termination().reason()
                    : "opencode " + execution.termination().kind().name().toLowerCase(Locale.ROOT).replace('_', ' ');
            return new Classified(imposed, why, null);
        }
        if (!events.errors().isEmpty()) {
            return fromErrors(events.errors());
        }
        Outcome base = Outcomes.opaque(execution);
        if (base == Outcome.ERROR) {
            List<String> tail = execution.stderrTail(5);
            String why = "opencode exited with " + execution.exitCode()
                    + (tail.isEmpty() ? " and printed no error event" : ": " + String.join(" | ", tail));
            return new Classified(Outcome.ERROR, why, null);
        }
        return new Classified(base, null, null);
    }

    /**
     * The outcome the error events call for: the last error with a class finer than {@code
     * error} wins (opencode reports the error that ended the session last); otherwise {@code
     * error} with the last one's message.
     */
    static Classified fromErrors(List<OpencodeEvents.ErrorEvent> errors) {
        for (int i = errors.size() - 1; i >= 0; i--) {
            OpencodeEvents.ErrorEvent e = errors.get(i);
            Outcome o = classify(e);
            if (o != Outcome.ERROR) {
                return new Classified(o, e.describe(), o == Outcome.RATE_LIMITED ? retryAt(e) : null);
            }
        }
        return new Classified(Outcome.ERROR, errors.get(errors.size() - 1).describe(), null);
    }

    /**
     * One error event's class: by name ({@code ContextOverflowError}, {@code ProviderAuthError}),
     * then by HTTP status, then by context-overflow wording; an event without a status that
     * opencode marks {@code isRetryable} (a connection dropped mid-answer) is transient.
     */
    static Outcome classify(OpencodeEvents.ErrorEvent e) {
        if ("ContextOverflowError".equals(e.name())) {
            return Outcome.CONTEXT_OVERFLOW;
        }
        if ("ProviderAuthError".equals(e.name())) {
            return Outcome.AUTH;
        }
        boolean overflowText = Outcomes.mentionsContextOverflow(e.message())
                || Outcomes.mentionsContextOverflow(e.responseBody());
        if (e.statusCode() != null) {
            Outcome byStatus = Outcomes.fromHttpStatus(e.statusCode()).orElse(null);
            if (byStatus == Outcome.BAD_REQUEST && overflowText) {
                return Outcome.CONTEXT_OVERFLOW;
            }
            if (byStatus != null) {
                return byStatus;
            }
        }
        if (overflowText) {
            return Outcome.CONTEXT_OVERFLOW;
        }
        // no status: the request never got an answer (a dropped or refused connection); opencode
        // says whether that is worth retrying
        return e.statusCode() == null && Boolean.TRUE.equals(e.retryable()) ? Outcome.TRANSIENT : Outcome.ERROR;
    }

    /**
     * When a rate limit resets, from the response's {@code retry-after-ms} or {@code
     * retry-after} (seconds or an HTTP date) relative to the event's time; {@code null} when
     * neither says.
     */
    static Instant retryAt(OpencodeEvents.ErrorEvent e) {
        Instant at = e.timestampMillis() != null ? Instant.ofEpochMilli(e.timestampMillis()) : null;
        String ms = e.responseHeaders().get("retry-after-ms");
        String s = e.responseHeaders().get("retry-after");
        try {
            if (ms != null && at != null) {
                return at.plusMillis(Math.round(Double.parseDouble(ms.trim())));
            }
            if (s != null) {
                String v = s.trim();
                if (v.matches("\\d+(\\.\\d+)?")) {
                    return at == null ? null : at.plusMillis(Math.round(Double.parseDouble(v) * 1000));
                }
                return ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
            }
        } catch (NumberFormatException | DateTimeParseException ignored) {
            // an unreadable header says nothing about the reset time
        }
        return null;
    }
}
