package dev.harness4j.continuedev;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
 * Translates what a {@code cn -p --format json} run did into a result: the opaque outcome rule
 * refined by the error object on stderr ({@code {"status":"error","message":...}}), the final
 * object's response as the summary. Tokens and the served model are left unmeasured (the CLI
 * prints none; the meter measures them). Pure: reads only the execution's files.
 */
final class ContinueResults {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The keys of the final object that may hold the answer's text, in order. */
    private static final List<String> TEXT_KEYS = List.of("response", "result", "output", "message", "content", "text");

    /** How many of stderr's last lines are searched for the error object. */
    private static final int STDERR_LINES = 50;

    private ContinueResults() {}

    /**
     * The final JSON object of one stream: the last line that parses as an object with a {@code
     * status}, or {@code null}.
     */
    static JsonNode finalObject(java.util.stream.Stream<String> lines) {
        JsonNode[] last = {null};
        lines.forEach(line -> {
            String t = line.strip();
            if (t.startsWith("{") && t.endsWith("}")) {
                try {
                    JsonNode n = JSON.readTree(t);
                    if (n.isObject() && n.has("status")) {
                        last[0] = n;
                    }
                } catch (java.io.IOException notJson) {
                    // a log line that only looks like an object
                }
            }
        });
        return last[0];
    }

    static HarnessResult interpret(Execution execution) {
        String requested = execution.context().model();
        JsonNode out;
        JsonNode err;
        try (var o = execution.stdoutLines()) {
            out = finalObject(o);
        }
        err = finalObject(execution.stderrTail(STDERR_LINES).stream()); // the error object is its last line
        String error = errorMessage(out, err);
        Classified c = classify(execution, error);
        return HarnessResult.builder(c.outcome(), requested)
                .reason(c.reason())
                .tokens(TokenUsage.unmeasured())
                .servedModel(ServedModel.unmeasured(requested))
                .summary(error == null ? text(out) : null)
                .retryAt(c.retryAt())
                .build();
    }

    /** The error object's message (stderr, else stdout), or {@code null} when the run ended without one. */
    static String errorMessage(JsonNode out, JsonNode err) {
        for (JsonNode n : new JsonNode[] {err, out}) {
            if (n != null && "error".equals(n.path("status").asText())) {
                String m = n.path("message").asText("").strip();
                return m.isEmpty() ? "continue ended with an error and no message" : m;
            }
        }
        return null;
    }

    /** The answer's text in a successful final object, or {@code null}. */
    static String text(JsonNode out) {
        if (out == null) {
            return null;
        }
        for (String k : TEXT_KEYS) {
            JsonNode v = out.path(k);
            if (v.isTextual() && !v.asText().isBlank()) {
                return v.asText().strip();
            }
        }
        return null;
    }

    /** An outcome with its reason and, for a rate limit, when it resets. */
    record Classified(Outcome outcome, String reason, Instant retryAt) {}

    static Classified classify(Execution execution, String error) {
        Outcome imposed = Outcomes.fromTermination(execution.termination()).orElse(null);
        if (imposed != null) {
            String why = execution.termination().reason() != null ? execution.termination().reason()
                    : "continue " + execution.termination().kind().name().toLowerCase(Locale.ROOT).replace('_', ' ');
            return new Classified(imposed, why, null);
        }
        if (error != null) {
            return fromFailure(error, execution);
        }
        Outcome base = Outcomes.opaque(execution);
        if (base == Outcome.ERROR) {
            List<String> tail = execution.stderrTail(5);
            String why = "cn exited with " + execution.exitCode()
                    + (tail.isEmpty() ? " and printed no result" : ": " + String.join(" | ", tail));
            return new Classified(Outcome.ERROR, why, null);
        }
        return new Classified(base, null, null);
    }

    /**
     * The class of the error that ended the run: a status code at the message's start ({@code "429
     * ..."}, as the OpenAI and Anthropic SDKs word an HTTP error), else what the words say ({@link
     * Outcomes#fromText}), else a dropped connection (transient), else {@code error}.
     */
    static Classified fromFailure(String message, Execution execution) {
        Outcome outcome = null;
        if (Outcomes.mentionsContextOverflow(message)) {
            outcome = Outcome.CONTEXT_OVERFLOW;
        }
        java.util.regex.Matcher status = java.util.regex.Pattern.compile("^(\\d{3})\\b").matcher(message);
        if (outcome == null && status.find()) {
            outcome = Outcomes.fromHttpAnswer(Integer.parseInt(status.group(1)), message).orElse(null);
        }
        if (outcome == null) {
            outcome = Outcomes.fromText(message).orElse(null);
        }
        if (outcome == null && mentionsDroppedConnection(message.toLowerCase(Locale.ROOT))) {
            outcome = Outcome.TRANSIENT;
        }
        if (outcome == null) {
            outcome = Outcome.ERROR;
        }
        Instant retryAt = outcome == Outcome.RATE_LIMITED ? Outcomes.retryAt(execution, message).orElse(null) : null;
        return new Classified(outcome, message, retryAt);
    }

    /** Node's and the SDKs' words for a connection that broke or never came up. */
    static boolean mentionsDroppedConnection(String lower) {
        return lower.contains("connection error") || lower.contains("terminated") || lower.contains("premature close")
                || lower.contains("fetch failed") || lower.contains("socket") || lower.contains("other side closed");
    }
}
