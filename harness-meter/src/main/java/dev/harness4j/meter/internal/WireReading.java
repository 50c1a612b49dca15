package dev.harness4j.meter.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;

/**
 * What one response revealed, filled in as its JSON or events are read: the answering model, the
 * usage figures (each {@code null} until the wire carried it), an error's type and message.
 * Used by one forwarding thread.
 */
final class WireReading {
    /** Longest error message kept. */
    static final int MAX_ERROR_MESSAGE = 500;

    private final WireStyle style;
    String answeredModel;
    boolean usageSeen;
    Long input;
    Long output;
    Long cacheRead;
    Long cacheWrite;
    String errorType;
    String errorMessage;
    /** The wait an error's body asks for (Google's {@code RetryInfo.retryDelay}), or null. */
    Duration retryDelay;
    /** Some JSON or event could not be read: the request's usage is not trusted. */
    boolean malformed;

    WireReading(WireStyle style) {
        this.style = style;
    }

    WireStyle style() {
        return style;
    }

    /** Reads one whole JSON document: a non-streamed response or one event's data. */
    void document(JsonNode n) {
        if (n == null || !n.isObject()) {
            return;
        }
        if (style == WireStyle.GEMINI) {
            gemini(n);
            return;
        }
        String type = n.path("type").asText("");
        switch (type) {
            case "message_start" -> {
                model(n.path("message").path("model"));
                usage(n.path("message").path("usage"));
            }
            case "message_delta" -> usage(n.path("usage"));
            case "response.created", "response.in_progress", "response.completed", "response.incomplete",
                    "response.failed" -> {
                model(n.path("response").path("model"));
                usage(n.path("response").path("usage"));
                error(n.path("response").path("error"));
            }
            case "error" -> error(n.path("error"));
            default -> {
                model(n.path("model"));
                usage(n.path("usage"));
                error(n.path("error"));
                if (style == WireStyle.OLLAMA && n.path("done").asBoolean(false)) {
                    ollama(n);
                }
            }
        }
    }

    private void model(JsonNode m) {
        if (m.isTextual() && !m.asText().isBlank()) {
            answeredModel = m.asText().strip();
        }
    }

    private void usage(JsonNode u) {
        if (!u.isObject()) {
            return;
        }
        switch (style) {
            case ANTHROPIC -> {
                // message_start carries input and cache figures; message_delta the final output (and,
                // on newer APIs, the input figures again): a later figure replaces an earlier one
                input = number(u, "input_tokens", input);
                output = number(u, "output_tokens", output);
                cacheRead = number(u, "cache_read_input_tokens", cacheRead);
                cacheWrite = number(u, "cache_creation_input_tokens", cacheWrite);
                usageSeen |= input != null || output != null;
            }
            case CHAT, OTHER -> openAi(u, "prompt_tokens", "completion_tokens", "prompt_tokens_details");
            case RESPONSES -> openAi(u, "input_tokens", "output_tokens", "input_tokens_details");
            case OLLAMA, GEMINI -> { }
        }
    }

    /**
     * One Gemini answer or stream chunk: {@code modelVersion}, {@code usageMetadata} (each chunk
     * carries the figures so far; a later chunk replaces an earlier one), or Google's error
     * {@code {"error":{"code","message","status","details"}}}.
     *
     * <p>{@code promptTokenCount} counts all input, cached included, so input = prompt + tool-use
     * prompt - cached, cache read = {@code cachedContentTokenCount}. Output = {@code
     * candidatesTokenCount + thoughtsTokenCount}: the candidates figure leaves the thinking out,
     * Google bills thinking as output ({@code totalTokenCount} is the sum of all four), and the
     * other styles count reasoning in their output too. Gemini has no cache-write figure (explicit
     * caches are created by a separate call): unmeasured.
     */
    private void gemini(JsonNode n) {
        model(n.path("modelVersion"));
        JsonNode u = n.path("usageMetadata");
        if (u.isObject()) {
            Long prompt = number(u, "promptTokenCount", null);
            Long candidates = number(u, "candidatesTokenCount", null);
            if (prompt != null || candidates != null) {
                long cached = u.path("cachedContentTokenCount").asLong(0);
                long toolPrompt = u.path("toolUsePromptTokenCount").asLong(0);
                long thoughts = u.path("thoughtsTokenCount").asLong(0);
                input = prompt == null ? null : Math.max(0, prompt + toolPrompt - cached);
                cacheRead = prompt == null ? null : cached;
                // a chunk before any candidate token may leave the field out: no output yet, not unknown
                output = candidates == null && prompt != null ? Long.valueOf(thoughts)
                        : candidates == null ? null : candidates + thoughts;
                cacheWrite = null;
                usageSeen = true;
            }
        }
        JsonNode e = n.path("error");
        if (e.isObject()) {
            String status = e.path("status").asText(null);
            errorType = status != null && !status.isBlank() ? status : e.path("code").asText(null);
            String m = e.path("message").asText(null);
            errorMessage = m == null ? null : cut(m);
            for (JsonNode d : e.path("details")) {
                if (d.path("@type").asText("").endsWith("google.rpc.RetryInfo")) {
                    retryDelay = RetryAt.goDuration(d.path("retryDelay").asText("").strip());
                }
            }
        }
    }

    /**
     * OpenAI counts cached input inside the prompt figure: input = prompt - cached. A usage
     * object without cache details reported no cached tokens (0). OpenAI has no cache-write
     * figure: cache writes are part of the input and stay unmeasured.
     */
    private void openAi(JsonNode u, String promptField, String outputField, String detailsField) {
        Long prompt = number(u, promptField, null);
        Long out = number(u, outputField, null);
        if (prompt == null && out == null) {
            return;
        }
        long cached = u.path(detailsField).path("cached_tokens").asLong(0);
        input = prompt == null ? null : Math.max(0, prompt - cached);
        cacheRead = prompt == null ? null : cached;
        output = out;
        cacheWrite = null;
        usageSeen = true;
    }

    private void ollama(JsonNode n) {
        Long in = number(n, "prompt_eval_count", null);
        Long out = number(n, "eval_count", null);
        if (in != null || out != null) {
            input = in;
            output = out;
            usageSeen = true;
        }
    }

    private void error(JsonNode e) {
        if (e.isTextual()) {
            errorMessage = cut(e.asText());
        } else if (e.isObject()) {
            String t = e.path("type").asText(null);
            if (t == null || t.isBlank()) {
                t = e.path("code").asText(null);
            }
            errorType = t;
            String m = e.path("message").asText(null);
            errorMessage = m == null ? null : cut(m);
        }
    }

    private static Long number(JsonNode n, String field, Long previous) {
        JsonNode v = n.path(field);
        return v.isNumber() && v.asLong() >= 0 ? Long.valueOf(v.asLong()) : previous;
    }

    private static String cut(String s) {
        return s.length() <= MAX_ERROR_MESSAGE ? s : s.substring(0, MAX_ERROR_MESSAGE) + "...";
    }
}
