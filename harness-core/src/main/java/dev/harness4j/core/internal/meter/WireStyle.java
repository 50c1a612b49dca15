package dev.harness4j.core.internal.meter;

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
        return OTHER;
    }
}
