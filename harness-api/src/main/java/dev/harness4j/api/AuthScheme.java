package dev.harness4j.api;

/** How an endpoint expects its key. */
public enum AuthScheme {
    /** {@code x-api-key: <key>} (Anthropic style; OpenAI-style clients send it as a bearer). */
    API_KEY,
    /** {@code Authorization: Bearer <key>}. */
    BEARER
}
