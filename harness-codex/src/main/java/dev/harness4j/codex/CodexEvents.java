package dev.harness4j.codex;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.Execution;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What a {@code codex exec --json} run printed, folded into sums: the JSON events on stdout
 * ({@code thread.started}, {@code turn.started}, {@code item.started}/{@code item.completed},
 * {@code turn.completed} with usage, {@code turn.failed}, {@code error}) and, on stderr, the log
 * lines {@link CodexInvocations#RUST_LOG} turns on: each HTTP response's status and headers and
 * each Responses API event.
 *
 * @param turns how many {@code turn.completed} events carried usage
 * @param inputTokens sum of {@code usage.input_tokens} (OpenAI's figure: cache reads included)
 * @param cachedInputTokens sum of {@code usage.cached_input_tokens}
 * @param cacheWriteTokens sum of {@code usage.cache_write_input_tokens} (the CLI prints 0 when the
 *     server sent no such figure: see {@code completedResponses})
 * @param outputTokens sum of {@code usage.output_tokens} (reasoning included)
 * @param lastMessage the last {@code agent_message} item's text, or {@code null}
 * @param commands how many {@code command_execution} items completed
 * @param failure the last {@code turn.failed} error message, or {@code null}
 * @param lastError the last top-level {@code error} event's message, or {@code null}
 * @param answeredModels the distinct {@code response.model} values of the Responses API events, in order
 * @param responses the HTTP responses the log recorded, in order
 * @param completedResponses how many Responses API {@code response.completed} events the log
 *     recorded with a {@code usage} object
 * @param cacheWriteReported how many of those carried {@code usage.input_tokens_details.cache_write_tokens}
 * @param threadId the {@code thread.started} event's {@code thread_id} (the session a follow-up
 *     resumes), or {@code null}
 */
record CodexEvents(
        int turns, long inputTokens, long cachedInputTokens, long cacheWriteTokens, long outputTokens,
        String lastMessage, int commands, String failure, String lastError, List<String> answeredModels,
        List<HttpResponse> responses, int completedResponses, int cacheWriteReported, String threadId) {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String REQUEST_COMPLETED = "Request completed ";
    private static final String SSE_EVENT = "SSE event: ";

    CodexEvents {
        answeredModels = List.copyOf(answeredModels);
        responses = List.copyOf(responses);
    }

    /**
     * One HTTP response the log recorded.
     *
     * @param at the log line's time, or {@code null}
     * @param status the HTTP status
     * @param headers the response headers, lower-cased names
     */
    record HttpResponse(Instant at, int status, Map<String, String> headers) {
        HttpResponse {
            headers = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(headers, "headers")));
        }
    }

    /** Reads an execution's stdout and stderr line by line, whatever their size. */
    static CodexEvents of(Execution execution) {
        Accumulator acc = new Accumulator();
        execution.forEachStdoutLine(acc::stdout);
        execution.forEachStderrLine(acc::stderr);
        return acc.result();
    }

    /** Reads the given lines (for tests). */
    static CodexEvents of(Iterable<String> stdout, Iterable<String> stderr) {
        Accumulator acc = new Accumulator();
        stdout.forEach(acc::stdout);
        stderr.forEach(acc::stderr);
        return acc.result();
    }

    /**
     * The cache writes the server reported: {@code cacheWriteTokens} when it is not 0 or when every
     * logged {@code response.completed} carried a cache-write figure; {@code null} (unmeasured)
     * otherwise. The Responses API has no cache-write figure of its own and the CLI prints {@code
     * cache_write_input_tokens: 0} all the same.
     */
    Long reportedCacheWrites() {
        boolean everyAnswerSaid = completedResponses > 0 && cacheWriteReported == completedResponses;
        return cacheWriteTokens > 0 || everyAnswerSaid ? Long.valueOf(cacheWriteTokens) : null;
    }

    /** The last response with an error status (400 or above), if any. */
    HttpResponse lastFailedResponse() {
        for (int i = responses.size() - 1; i >= 0; i--) {
            if (responses.get(i).status() >= 400) {
                return responses.get(i);
            }
        }
        return null;
    }

    /** Folds events one line at a time. */
    private static final class Accumulator {
        private int turns;
        private long input;
        private long cached;
        private long cacheWrite;
        private long output;
        private String lastMessage;
        private int commands;
        private String failure;
        private String lastError;
        private final Set<String> models = new LinkedHashSet<>();
        private final List<HttpResponse> responses = new ArrayList<>();
        private int completedResponses;
        private int cacheWriteReported;
        private String threadId;

        void stdout(String raw) {
            JsonNode event = object(raw.strip());
            if (event == null) {
                return; // a partial line or noise: not an event
            }
            switch (event.path("type").asText("")) {
                case "turn.completed" -> {
                    JsonNode u = event.path("usage");
                    if (u.isObject()) {
                        turns++;
                        input += count(u.path("input_tokens"));
                        cached += count(u.path("cached_input_tokens"));
                        cacheWrite += count(u.path("cache_write_input_tokens"));
                        output += count(u.path("output_tokens"));
                    }
                }
                case "item.completed" -> {
                    JsonNode item = event.path("item");
                    switch (item.path("type").asText("")) {
                        case "agent_message" -> {
                            String text = item.path("text").asText("");
                            if (!text.isBlank()) {
                                lastMessage = text.strip();
                            }
                        }
                        case "command_execution" -> commands++;
                        default -> { } // reasoning, file_change, error notices (e.g. unknown model metadata), ...
                    }
                }
                case "thread.started" -> threadId = text(event.path("thread_id"));
                case "turn.failed" -> failure = text(event.path("error").path("message"));
                case "error" -> lastError = text(event.path("message"));
                default -> { } // turn.started, item.started, item.updated, newer types
            }
        }

        void stderr(String raw) {
            int sse = raw.indexOf(SSE_EVENT);
            if (sse >= 0) {
                JsonNode event = object(raw.substring(sse + SSE_EVENT.length()).strip());
                if (event != null) {
                    String model = text(event.path("response").path("model"));
                    if (model != null && !model.isBlank()) {
                        models.add(model);
                    }
                    JsonNode usage = event.path("response").path("usage");
                    if ("response.completed".equals(event.path("type").asText()) && usage.isObject()) {
                        completedResponses++;
                        if (usage.path("input_tokens_details").path("cache_write_tokens").isNumber()) {
                            cacheWriteReported++;
                        }
                    }
                }
                return;
            }
            int req = raw.indexOf(REQUEST_COMPLETED);
            if (req >= 0) {
                HttpResponse r = response(raw, raw.substring(req + REQUEST_COMPLETED.length()));
                if (r != null) {
                    responses.add(r);
                }
            }
        }

        /**
         * {@code <time> DEBUG codex_http_client::client: Request completed method=POST url=...
         * status=429 Too Many Requests headers={"retry-after": "2", ...} version=HTTP/1.1}.
         */
        private static HttpResponse response(String line, String rest) {
            int s = rest.indexOf("status=");
            if (s < 0) {
                return null;
            }
            int e = s + "status=".length();
            int end = e;
            while (end < rest.length() && Character.isDigit(rest.charAt(end))) {
                end++;
            }
            if (end == e) {
                return null;
            }
            int status = Integer.parseInt(rest.substring(e, Math.min(end, e + 3)));
            Map<String, String> headers = new LinkedHashMap<>();
            int h = rest.indexOf("headers={", end);
            int v = rest.lastIndexOf("} version=");
            if (h >= 0 && v > h) {
                JsonNode map = object(rest.substring(h + "headers=".length(), v + 1));
                if (map != null) {
                    map.fields().forEachRemaining(f -> headers.put(f.getKey().toLowerCase(Locale.ROOT), f.getValue().asText()));
                }
            }
            return new HttpResponse(time(line), status, headers);
        }

        private static Instant time(String line) {
            int sp = line.indexOf(' ');
            if (sp <= 0) {
                return null;
            }
            try {
                return Instant.parse(line.substring(0, sp));
            } catch (DateTimeParseException e) {
                return null;
            }
        }

        private static JsonNode object(String text) {
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

        private static long count(JsonNode n) {
            return n.isNumber() ? Math.max(0, n.asLong()) : 0;
        }

        private static String text(JsonNode n) {
            return n.isValueNode() && !n.isNull() ? n.asText() : null;
        }

        CodexEvents result() {
            return new CodexEvents(turns, input, cached, cacheWrite, output, lastMessage, commands, failure, lastError,
                    List.copyOf(models), responses, completedResponses, cacheWriteReported, threadId);
        }
    }
}
