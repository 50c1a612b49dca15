package dev.harness4j.cline;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.Execution;

/**
 * What a {@code cline --json} run printed on stdout, folded: the {@code agent_event} errors
 * ({@code error.message} and Cline's {@code errorClass}), the {@code hook_event}s' {@code taskId}
 * (the session a follow-up would resume), and the final {@code run_result} with its {@code
 * finishReason}, {@code text} and usage.
 *
 * @param resultSeen whether a {@code run_result} line was printed
 * @param finishReason its {@code finishReason} ({@code completed}, {@code error}, ...), or {@code null}
 * @param resultText its {@code text} (the final answer, or the error message), or {@code null}
 * @param usage its {@code aggregateUsage} (else {@code usage}), or {@code null} when it had none
 * @param errorMessage the last {@code error} event's message, or {@code null}
 * @param errorClass that event's {@code errorClass} ({@code auth}, {@code unknown}, ...), or {@code null}
 * @param taskId the {@code taskId} of the first hook event, or {@code null}
 * @param aborted whether a {@code run_aborted} line was printed
 */
record ClineEvents(boolean resultSeen, String finishReason, String resultText, Usage usage, String errorMessage,
        String errorClass, String taskId, boolean aborted) {

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * Token figures as Cline prints them; {@code null} when a field was absent (unmeasured, not 0).
     *
     * @param input {@code inputTokens}, or {@code null}
     * @param output {@code outputTokens}, or {@code null}
     * @param cacheRead {@code cacheReadTokens}, or {@code null}
     * @param cacheWrite {@code cacheWriteTokens}, or {@code null}
     */
    record Usage(Long input, Long output, Long cacheRead, Long cacheWrite) {
        /** Whether any figure is above 0: a run whose requests all failed prints zeros, which measure nothing. */
        boolean any() {
            return positive(input) || positive(output) || positive(cacheRead) || positive(cacheWrite);
        }

        /** The input without the cache reads Cline's {@code inputTokens} include; {@code input} when those are unknown. */
        Long uncachedInput() {
            return input == null || cacheRead == null ? input : Math.max(0, input - cacheRead);
        }

        static Usage of(JsonNode u) {
            if (!u.isObject()) {
                return null;
            }
            return new Usage(count(u.path("inputTokens")), count(u.path("outputTokens")),
                    count(u.path("cacheReadTokens")), count(u.path("cacheWriteTokens")));
        }

        private static boolean positive(Long v) {
            return v != null && v > 0;
        }
    }

    /** Reads an execution's stdout line by line, whatever its size. */
    static ClineEvents of(Execution execution) {
        Accumulator acc = new Accumulator();
        execution.forEachStdoutLine(acc::line);
        return acc.result();
    }

    /** Reads the given lines (for tests). */
    static ClineEvents of(Iterable<String> stdout) {
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

    private static Long count(JsonNode n) {
        return n.isNumber() ? Math.max(0, n.asLong()) : null;
    }

    private static String text(JsonNode n) {
        return n.isValueNode() && !n.isNull() ? n.asText() : null;
    }

    /** Folds events one line at a time. */
    private static final class Accumulator {
        private boolean resultSeen;
        private String finishReason;
        private String resultText;
        private Usage usage;
        private String errorMessage;
        private String errorClass;
        private String taskId;
        private boolean aborted;

        void line(String raw) {
            JsonNode e = object(raw);
            if (e == null) {
                return;
            }
            if (taskId == null && e.path("taskId").isTextual()) {
                taskId = e.path("taskId").asText();
            }
            switch (e.path("type").asText("")) {
                case "agent_event" -> {
                    JsonNode ev = e.path("event");
                    if ("error".equals(ev.path("type").asText())) {
                        errorMessage = text(ev.path("error").path("message"));
                        errorClass = text(ev.path("errorClass"));
                    }
                }
                case "run_result" -> {
                    resultSeen = true;
                    finishReason = text(e.path("finishReason"));
                    resultText = text(e.path("text"));
                    Usage aggregate = Usage.of(e.path("aggregateUsage"));
                    usage = aggregate != null ? aggregate : Usage.of(e.path("usage"));
                }
                case "run_aborted" -> aborted = true;
                default -> { } // hook events, other agent events, newer types
            }
        }

        ClineEvents result() {
            return new ClineEvents(resultSeen, finishReason, resultText, usage, errorMessage, errorClass, taskId,
                    aborted);
        }
    }
}
