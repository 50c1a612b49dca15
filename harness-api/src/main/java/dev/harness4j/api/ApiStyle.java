package dev.harness4j.api;

/** A model API wire format an endpoint serves. A gateway may serve several. */
public enum ApiStyle {
    /** Anthropic Messages ({@code POST /v1/messages}). */
    ANTHROPIC,
    /** OpenAI Chat Completions / Responses ({@code POST /v1/chat/completions}). */
    OPENAI,
    /** Ollama's native API ({@code /api/chat}, {@code /api/tags}). */
    OLLAMA,
    /**
     * Google's Gemini API ({@code POST /v1beta/models/{model}:generateContent} and {@code
     * :streamGenerateContent?alt=sse}); the model is named in the path, the key travels as {@code
     * x-goog-api-key} (or a {@code key} query parameter).
     */
    GEMINI
}
