package dev.harness4j.meter.internal;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/** The model API a request speaks, told by its path; decides how usage is read. */
enum WireStyle {
    /** Anthropic Messages: {@code input_tokens}, {@code output_tokens}, {@code cache_*_input_tokens}. */
    ANTHROPIC,
    /** OpenAI Chat Completions: {@code prompt_tokens} (cached included), {@code completion_tokens}. */
    CHAT,
    /** OpenAI Responses: {@code input_tokens} (cached included), {@code output_tokens}. */
    RESPONSES,
    /** Ollama's native API: {@code prompt_eval_count}, {@code eval_count}. */
    OLLAMA,
    /**
     * Google's Gemini API ({@code /v1beta/models/{model}:generateContent} and {@code
     * :streamGenerateContent}): {@code usageMetadata}, the answering model in {@code modelVersion},
     * the requested model in the path.
     */
    GEMINI,
    /** Anything else (model lists, probes): no usage expected. */
    OTHER;

    static WireStyle ofPath(String path) {
        String p = path;
        while (p.endsWith("/")) {
            p = p.substring(0, p.length() - 1);
        }
        if (p.endsWith("/messages")) {
            return ANTHROPIC;
        }
        if (p.endsWith("/chat/completions") || p.endsWith("/completions")) {
            return CHAT;
        }
        if (p.endsWith("/responses")) {
            return RESPONSES;
        }
        if (p.endsWith("/api/chat") || p.endsWith("/api/generate")) {
            return OLLAMA;
        }
        if (geminiModel(p) != null) {
            return GEMINI;
        }
        return OTHER;
    }

    /**
     * The model a Gemini API path names ({@code .../models/gemini-2.5-pro:streamGenerateContent}
     * → {@code gemini-2.5-pro}), or {@code null} when the path is not a Gemini model call
     * ({@code :countTokens} is not one: it bills nothing).
     */
    static String geminiModel(String path) {
        int colon = path.lastIndexOf(':');
        if (colon < 0) {
            return null;
        }
        String method = path.substring(colon + 1);
        if (!method.equals("generateContent") && !method.equals("streamGenerateContent")) {
            return null;
        }
        int models = path.lastIndexOf("/models/", colon);
        if (models < 0) {
            return null;
        }
        String model = decodeSegment(path.substring(models + "/models/".length(), colon));
        return model.isBlank() || model.contains("/") ? null : model;
    }

    /**
     * A path segment with its {@code %XX} escapes decoded: a {@code +} stays a {@code +} (that is
     * form encoding, not path encoding), and a malformed escape leaves the segment as it came
     * (this runs in the meter's request handler, which must forward the request, not throw).
     */
    static String decodeSegment(String segment) {
        if (segment.indexOf('%') < 0) {
            return segment;
        }
        try {
            return URLDecoder.decode(segment.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return segment;
        }
    }
}
