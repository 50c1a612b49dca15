package dev.harness4j.copilot;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.Execution;

/**
 * What a {@code copilot --output-format json} run printed on stdout (JSONL), folded: the {@code
 * assistant.message} events' text, {@code session.error} events (message and HTTP status), and the
 * final {@code result} event with the session id and exit code.
 *
 * @param resultSeen whether a {@code result} event was printed
 * @param resultExitCode its {@code exitCode}, or -1
 * @param sessionId its {@code sessionId} (what a follow-up resumes), or {@code null}
 * @param errorMessage the last {@code session.error}'s {@code message}, or {@code null}
 * @param errorStatus the last {@code session.error}'s {@code statusCode}, or -1
 * @param lastMessage the last non-blank assistant text, or {@code null}
 */
record CopilotEvents(boolean resultSeen, int resultExitCode, String sessionId, String errorMessage, int errorStatus,
        String lastMessage) {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Reads an execution's stdout line by line, whatever its size. */
    static CopilotEvents of(Execution execution) {
        Accumulator acc = new Accumulator();
        execution.forEachStdoutLine(acc::line);
        return acc.result();
    }

    /** Reads the given lines (for tests). */
    static CopilotEvents of(Iterable<String> stdout) {
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

    /** An assistant message's text: {@code data.content} as a string or as text parts. */
    static String messageText(JsonNode data) {
        JsonNode c = data.path("content");
        if (c.isTextual()) {
            return c.asText();
        }
        StringBuilder sb = new StringBuilder();
        for (JsonNode part : c) {
            if (part.path("text").isTextual()) {
                sb.append(part.path("text").asText());
            }
        }
        return sb.toString();
    }

    /** Folds events one line at a time. */
    private static final class Accumulator {
        private boolean resultSeen;
        private int exitCode = -1;
        private String sessionId;
        private String error;
        private int status = -1;
        private String lastMessage;

        void line(String raw) {
            JsonNode e = object(raw);
            if (e == null) {
                return;
            }
            JsonNode data = e.path("data");
            switch (e.path("type").asText("")) {
                case "assistant.message" -> {
                    String t = messageText(data);
                    if (!t.isBlank()) {
                        lastMessage = t.strip();
                    }
                }
                case "session.error" -> {
                    JsonNode d = data.isObject() ? data : e;
                    error = d.path("message").isTextual() ? d.path("message").asText() : "copilot reported an error";
                    status = d.path("statusCode").isInt() ? d.path("statusCode").asInt() : -1;
                }
                case "result" -> {
                    resultSeen = true;
                    exitCode = e.path("exitCode").isInt() ? e.path("exitCode").asInt() : -1;
                    if (e.path("sessionId").isTextual()) {
                        sessionId = e.path("sessionId").asText();
                    }
                }
                default -> { } // session.*, user.message, tool events, newer types
            }
        }

        CopilotEvents result() {
            return new CopilotEvents(resultSeen, exitCode, sessionId, error, status, lastMessage);
        }
    }
}
