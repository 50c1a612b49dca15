package dev.harness4j.aider;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.api.ResolvedProvider;
import java.util.Optional;

/**
 * Which of LiteLLM's routes aider reaches a provider by. aider talks to models through LiteLLM
 * (1.81.10 in aider 0.86.2), which speaks OpenAI Chat Completions, Anthropic Messages and
 * Google's Gemini API natively; the model's prefix picks the route, and each route reads its
 * endpoint and key from its own variables (checked in LiteLLM's {@code main.py} and {@code
 * llms/vertex_ai/vertex_llm_base.py}).
 *
 * <p>When a provider serves several styles the first of {@link #values()} it serves is taken:
 * OpenAI chat, then Anthropic, then Gemini (OpenAI chat first, because it is the route aider is
 * built and tested around). What the route gets is the provider's URL, which on a metered run is
 * the runner's meter, so every route is metered alike.
 */
enum AiderRoute {
    /** {@code openai/<model>}; {@code OPENAI_API_BASE} is the {@code /v1} URL. */
    OPENAI(ApiStyle.OPENAI, "openai/", "OPENAI_API_BASE", "OPENAI_API_KEY"),
    /**
     * {@code anthropic/<model>}; {@code ANTHROPIC_API_BASE} is the root URL, to which LiteLLM adds
     * {@code /v1/messages}; the key goes as {@code x-api-key}.
     */
    ANTHROPIC(ApiStyle.ANTHROPIC, "anthropic/", "ANTHROPIC_API_BASE", "ANTHROPIC_API_KEY"),
    /**
     * {@code gemini/<model>}; {@code GEMINI_API_BASE} is the root URL with {@code /v1beta}, to which
     * LiteLLM adds {@code /models/<model>:generateContent}; the key goes as {@code x-goog-api-key}
     * and must be set even for a keyless endpoint.
     */
    GEMINI(ApiStyle.GEMINI, "gemini/", "GEMINI_API_BASE", "GEMINI_API_KEY");

    private final ApiStyle style;
    private final String prefix;
    private final String baseEnv;
    private final String keyEnv;

    AiderRoute(ApiStyle style, String prefix, String baseEnv, String keyEnv) {
        this.style = style;
        this.prefix = prefix;
        this.baseEnv = baseEnv;
        this.keyEnv = keyEnv;
    }

    /** The API style this route speaks. */
    ApiStyle style() {
        return style;
    }

    /** The model as aider is given it: LiteLLM's prefix, then the run's model. */
    String model(String model) {
        return prefix + model;
    }

    /** The variable LiteLLM reads the endpoint from. */
    String baseEnv() {
        return baseEnv;
    }

    /** The variable LiteLLM reads the key from. */
    String keyEnv() {
        return keyEnv;
    }

    /** The endpoint as LiteLLM wants it for this route. */
    String baseUrl(ResolvedProvider provider) {
        return switch (this) {
            case OPENAI -> provider.v1Url();
            case ANTHROPIC -> provider.rootUrl();
            case GEMINI -> provider.rootUrl().endsWith("/v1beta") ? provider.rootUrl() : provider.rootUrl() + "/v1beta";
        };
    }

    /** The route for a provider: the first of {@link #values()} it serves, or empty when none. */
    static Optional<AiderRoute> of(ResolvedProvider provider) {
        for (AiderRoute r : values()) {
            if (provider.serves(r.style)) {
                return Optional.of(r);
            }
        }
        return Optional.empty();
    }

    /** Why aider cannot run on this provider (see {@link AiderHarness#unsupported}), or empty. */
    static Optional<String> unsupported(ResolvedProvider provider) {
        if (provider.usesCliLogin()) {
            return Optional.of("aider cannot use provider '" + provider.name() + "', the CLI's own login: "
                    + "aider has no login of its own: it reaches its model only through the endpoint and key it is given; "
                    + "configure the provider with a base_url (and key_env)");
        }
        Optional<AiderRoute> route = of(provider);
        if (route.isEmpty()) {
            return Optional.of("aider cannot talk to provider '" + provider.name() + "' at " + provider.rootUrl()
                    + ": it serves " + provider.apiStyles() + ", but aider speaks OpenAI Chat Completions, Anthropic "
                    + "Messages or Google's Gemini API (through LiteLLM); declare the endpoint's OpenAI-compatible API "
                    + "if it has one (most Ollama-style servers offer one at /v1), or run this provider with another harness");
        }
        if (route.get() == ANTHROPIC && provider.auth() == AuthScheme.BEARER && provider.secret() != null) {
            return Optional.of("aider cannot send provider '" + provider.name() + "' its key as a bearer token: on "
                    + "the Anthropic API aider's LiteLLM sends the key only as x-api-key; set the provider's auth to "
                    + "api_key if the endpoint accepts x-api-key, declare its OpenAI-compatible API if it has one, or "
                    + "run this provider with claude-code");
        }
        return Optional.empty();
    }
}
