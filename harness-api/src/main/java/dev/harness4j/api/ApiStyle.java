package dev.harness4j.api;

/** A model API wire format an endpoint serves. A gateway may serve several. */
public enum ApiStyle {
    /** Anthropic Messages ({@code POST /v1/messages}). */
    ANTHROPIC,
    /** OpenAI Chat Completions / Responses ({@code POST /v1/chat/completions}). */
    OPENAI,
    /** Ollama's native API ({@code /api/chat}, {@code /api/tags}). */
    OLLAMA
}
