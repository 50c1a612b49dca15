package dev.harness4j.gemini;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.Execution;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a {@code gemini --output-format stream-json} run printed, folded: the JSON events on stdout
 * ({@code init}, {@code message}, {@code tool_use}, {@code tool_result}, {@code error}, and the
 * final {@code result} with its status, error and token stats) and, on stderr, the HTTP statuses of
 * failed model requests ({@code Attempt 1 failed with status 429. Retrying with backoff...}, and
 * Google's error JSON {@code {"error":{"code":429,...}}} the CLI prints with them).
 *
 * @param result whether a {@code result} event was read
 * @param success whether the {@code result} event's status was {@code success}
 * @param errorType the {@code result} event's {@code error.type}, or {@code null}
 * @param errorMessage the {@code result} event's {@code error.message}, or {@code null}
 * @param lastError the last {@code error} event of severity {@code error}, or {@code null}
 * @param stats the {@code result} event's token figures, or {@code null} without a result
 * @param lastMessage the assistant text after the last tool call (the answer), or {@code null}
 * @param toolCalls how many {@code tool_use} events were read
 * @param statuses the HTTP statuses of failed requests stderr names, in order
 * @param sessionId the {@code init} event's {@code session_id} (what a follow-up resumes), or {@code null}
 */
record GeminiEvents(boolean result, boolean success, String errorType, String errorMessage, String lastError,
        Stats stats, String lastMessage, int toolCalls, List<Integer> statuses, String sessionId) {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** {@code Attempt 1 failed with status 429.}, {@code "code":429}, {@code status: 503}. */
    private static final Pattern STATUS = Pattern.compile(
            "(?:failed with status|\"code\"\\s*:|\\bcode:|\\bstatus:)\\s*(\\d{3})\\b");

    GeminiEvents {
        statuses = List.copyOf(statuses);
    }

    /**
     * The token figures of the {@code result} event, summed over models by the CLI.
     *
     * @param inputTokens {@code input_tokens}: all input, cached included
     * @param input {@code input}: uncached input
     * @param cached {@code cached}: cached input
     * @param outputTokens {@code output_tokens}: candidates, thinking left out
     * @param totalTokens {@code total_tokens}: Google's {@code totalTokenCount} summed
     * @param answeredModels the keys of {@code models} whose figures are not all 0, in order
     *     (each figure {@code null} when the CLI did not print it)
     */
    record Stats(Long inputTokens, Long input, Long cached, Long outputTokens, Long totalTokens,
            List<String> answeredModels) {
        Stats {
            answeredModels = List.copyOf(answeredModels);
        }

        /** Whether any model call was answered (the CLI reports zeros for a run whose every call failed). */
        boolean anyAnswered() {
            return !answeredModels.isEmpty();
        }
    }

    /** Reads an execution's stdout and stderr line by line, whatever their size. */
    static GeminiEvents of(Execution execution) {
        Accumulator acc = new Accumulator();
        execution.forEachStdoutLine(acc::stdout);
        execution.forEachStderrLine(acc::stderr);
        return acc.result();
    }

    /** Reads the given lines (for tests). */
    static GeminiEvents of(Iterable<String> stdout, Iterable<String> stderr) {
        Accumulator acc = new Accumulator();
        stdout.forEach(acc::stdout);
        stderr.forEach(acc::stderr);
        return acc.result();
    }

    /** The last HTTP status stderr names, or {@code null}. */
    Integer lastStatus() {
        return statuses.isEmpty() ? null : statuses.get(statuses.size() - 1);
    }

    /** The failure to classify: the result's error message, else the last error event's; {@code null} for none. */
    String failure() {
        if (errorMessage != null && !errorMessage.isBlank()) {
            return errorMessage;
        }
        return result && success ? null : lastError;
    }

    /** Parses one stdout line as an event object, or {@code null} for anything else. */
    static JsonNode event(String raw) {
        String text = raw.strip();
        if (!text.startsWith("{\"type\":")) {
            return null;
        }
        try {
            JsonNode n = JSON.readTree(text);
            return n != null && n.isObject() ? n : null;
        } catch (Exception e) { // a cut or garbled line: not an event
            return null;
        }
    }

    /** Folds events one line at a time. */
    private static final class Accumulator {
        private boolean result;
        private boolean success;
        private String errorType;
        private String errorMessage;
        private String lastError;
        private Stats stats;
        private StringBuilder text = new StringBuilder();
        private String lastMessage;
        private int toolCalls;
        private final List<Integer> statuses = new ArrayList<>();
        private String sessionId;

        void stdout(String raw) {
            JsonNode e = event(raw);
            if (e == null) {
                return;
            }
            switch (e.path("type").asText("")) {
                case "init" -> sessionId = text(e.path("session_id"));
                case "message" -> {
                    if ("assistant".equals(e.path("role").asText())) {
                        if (!e.path("delta").asBoolean(false)) {
                            text = new StringBuilder();
                        }
                        text.append(e.path("content").asText(""));
                        String t = text.toString().strip();
                        lastMessage = t.isEmpty() ? lastMessage : t;
                    }
                }
                case "tool_use" -> {
                    toolCalls++;
                    text = new StringBuilder(); // the answer is what comes after the last tool call
                }
                case "error" -> {
                    if ("error".equals(e.path("severity").asText())) {
                        lastError = text(e.path("message"));
                    }
                }
                case "result" -> {
                    result = true;
                    success = "success".equals(e.path("status").asText());
                    errorType = text(e.path("error").path("type"));
                    errorMessage = text(e.path("error").path("message"));
                    stats = stats(e.path("stats"));
                }
                default -> { } // user messages, tool_result, newer types
            }
        }

        void stderr(String raw) {
            Matcher m = STATUS.matcher(raw);
            while (m.find()) {
                int s = Integer.parseInt(m.group(1));
                if (s >= 400 && s <= 599) {
                    statuses.add(s);
                }
            }
        }

        private static Stats stats(JsonNode s) {
            if (!s.isObject()) {
                return null;
            }
            List<String> answered = new ArrayList<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = s.path("models").fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> m = it.next();
                if (positive(count(m.getValue().path("total_tokens"))) || positive(count(m.getValue().path("input_tokens")))) {
                    answered.add(m.getKey());
                }
            }
            return new Stats(count(s.path("input_tokens")), count(s.path("input")), count(s.path("cached")),
                    count(s.path("output_tokens")), count(s.path("total_tokens")), answered);
        }

        /** A field's count, or {@code null} when it is absent or not a number (unmeasured, not 0). */
        private static Long count(JsonNode n) {
            return n.isNumber() ? Math.max(0, n.asLong()) : null;
        }

        private static boolean positive(Long v) {
            return v != null && v > 0;
        }

        private static String text(JsonNode n) {
            return n.isValueNode() && !n.isNull() ? n.asText() : null;
        }

        GeminiEvents result() {
            return new GeminiEvents(result, success, errorType, errorMessage, lastError, stats, lastMessage, toolCalls,
                    statuses, sessionId);
        }
    }
}
