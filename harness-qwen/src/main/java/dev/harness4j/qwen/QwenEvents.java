package dev.harness4j.qwen;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.Execution;

/**
 * What a {@code qwen --output-format stream-json} run printed on stdout, folded into sums: the
 * {@code system} events ({@code init}, {@code retry}), {@code assistant} messages with their
 * per-request usage, {@code user} tool results, and the final {@code result} envelope with the
 * run's totals, its text and, on failure, {@code error.message}.
 *
 * @param resultSeen whether a {@code result} envelope was printed
 * @param resultSubtype its {@code subtype} ({@code success}, {@code error_during_execution}, ...), or {@code null}
 * @param resultError whether it said {@code is_error}
 * @param resultText its {@code result} text, or {@code null}
 * @param errorMessage its {@code error.message}, or {@code null}
 * @param totals the envelope's usage, or {@code null} when it had none
 * @param summed the assistant messages' usage summed, or {@code null} when none carried usage
 * @param lastMessage the last assistant text, or {@code null}
 * @param retries how many {@code system/retry} events Qwen Code printed
 * @param turns the envelope's {@code num_turns}, or -1
 * @param sessionId the envelopes' {@code session_id} (what a follow-up resumes), or {@code null}
 */
record QwenEvents(boolean resultSeen, String resultSubtype, boolean resultError, String resultText,
        String errorMessage, Usage totals, Usage summed, String lastMessage, int retries, int turns,
        String sessionId) {

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * Token figures as Qwen Code prints them; {@code null} when a field was absent (unmeasured, not 0).
     *
     * @param input {@code input_tokens} (the prompt's, cache reads included), or {@code null}
     * @param output {@code output_tokens}, or {@code null}
     * @param cacheRead {@code cache_read_input_tokens}, or {@code null}
     */
    record Usage(Long input, Long output, Long cacheRead) {
        /** Whether any figure is above 0: a failed request prints all zeros, which measure nothing. */
        boolean any() {
            return positive(input) || positive(output) || positive(cacheRead);
        }

        /** The sum; a figure one side lacks is unmeasured in the sum too. */
        Usage plus(Usage o) {
            return new Usage(sum(input, o.input), sum(output, o.output), sum(cacheRead, o.cacheRead));
        }

        static Usage of(JsonNode u) {
            if (!u.isObject()) {
                return null;
            }
            return new Usage(count(u.path("input_tokens")), count(u.path("output_tokens")),
                    count(u.path("cache_read_input_tokens")));
        }

        private static boolean positive(Long v) {
            return v != null && v > 0;
        }

        private static Long sum(Long a, Long b) {
            return a == null || b == null ? null : a + b;
        }
    }

    /** Reads an execution's stdout line by line, whatever its size. */
    static QwenEvents of(Execution execution) {
        Accumulator acc = new Accumulator();
        execution.forEachStdoutLine(acc::line);
        return acc.result();
    }

    /** Reads the given lines (for tests). */
    static QwenEvents of(Iterable<String> stdout) {
        Accumulator acc = new Accumulator();
        stdout.forEach(acc::line);
        return acc.result();
    }

    /** The JSON object on a line, or {@code null} for a partial line or noise. */
    static JsonNode object(String raw) {
        String text = raw.strip();
        if (!text.startsWith("{")) {
            return null;
        }
        try {
            JsonNode n = JSON.readTree(text);
            return n != null && n.isObject() ? n : null;
        } catch (Exception e) { // not JSON after all
            return null;
        }
    }

    /** A field's count, or {@code null} when it is absent or not a number. */
    private static Long count(JsonNode n) {
        return n.isNumber() ? Math.max(0, n.asLong()) : null;
    }

    private static String text(JsonNode n) {
        return n.isValueNode() && !n.isNull() ? n.asText() : null;
    }

    /** Folds events one line at a time. */
    private static final class Accumulator {
        private boolean resultSeen;
        private String subtype;
        private boolean isError;
        private String resultText;
        private String error;
        private Usage totals;
        private Usage summed;
        private String lastMessage;
        private int retries;
        private int turns = -1;
        private String sessionId;

        void line(String raw) {
            JsonNode e = object(raw);
            if (e == null) {
                return;
            }
            if (sessionId == null && e.path("session_id").isTextual()) {
                sessionId = e.path("session_id").asText();
            }
            switch (e.path("type").asText("")) {
                case "assistant" -> assistant(e.path("message"));
                case "system" -> {
                    if ("retry".equals(e.path("subtype").asText())) {
                        retries++;
                    }
                }
                case "result" -> {
                    resultSeen = true;
                    subtype = text(e.path("subtype"));
                    isError = e.path("is_error").asBoolean(false);
                    resultText = text(e.path("result"));
                    error = text(e.path("error").path("message"));
                    totals = Usage.of(e.path("usage"));
                    turns = e.path("num_turns").isNumber() ? e.path("num_turns").asInt() : -1;
                }
                default -> { } // user (tool results), stream events, newer types
            }
        }

        private void assistant(JsonNode message) {
            Usage u = Usage.of(message.path("usage"));
            if (u != null && u.any()) {
                summed = summed == null ? u : summed.plus(u);
            }
            StringBuilder t = new StringBuilder();
            for (JsonNode block : message.path("content")) {
                if ("text".equals(block.path("type").asText())) {
                    t.append(block.path("text").asText(""));
                }
            }
            if (!t.toString().isBlank()) {
                lastMessage = t.toString().strip();
            }
        }

        QwenEvents result() {
            return new QwenEvents(resultSeen, subtype, isError, resultText, error, totals, summed, lastMessage, retries,
                    turns, sessionId);
        }
    }
}
