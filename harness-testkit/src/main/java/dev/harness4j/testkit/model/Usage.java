package dev.harness4j.testkit.model;

/**
 * Token figures the server reports for one model turn.
 *
 * <p>The figures follow Anthropic's meaning: {@code input} is the uncached input. On the OpenAI
 * APIs the server reports {@code prompt_tokens = input + cacheRead + cacheWrite} with {@code
 * cacheRead} as {@code prompt_tokens_details.cached_tokens} (Chat Completions) or {@code
 * input_tokens_details.cached_tokens} (Responses); OpenAI has no field for cache writes.
 *
 * @param input uncached input tokens
 * @param output output tokens
 * @param cacheRead input tokens read from the prompt cache
 * @param cacheWrite input tokens written to the prompt cache
 */
public record Usage(long input, long output, long cacheRead, long cacheWrite) {
    /** What a turn reports when its scenario says nothing: 10 input, 5 output, no cache. */
    public static final Usage DEFAULT = new Usage(10, 5, 0, 0);

    /** What a side request (a title or a commit message) reports: 1 input, 1 output. */
    public static final Usage SIDE_REQUEST = new Usage(1, 1, 0, 0);

    public Usage {
        if (input < 0 || output < 0 || cacheRead < 0 || cacheWrite < 0) {
            throw new IllegalArgumentException("token counts must not be negative, were input=" + input
                    + " output=" + output + " cacheRead=" + cacheRead + " cacheWrite=" + cacheWrite);
        }
    }

    /** Input as the OpenAI APIs count it: uncached plus cached input. */
    public long promptTokens() {
        return input + cacheRead + cacheWrite;
    }
}
