package dev.harness4j.miniswe;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.api.ResolvedProvider;
import java.util.Optional;

/**
 * Which of LiteLLM's routes mini-swe-agent reaches a provider by. mini-swe-agent calls models
 * through LiteLLM (1.110.2 in mini-swe-agent 2.4.6), which speaks OpenAI Chat Completions,
 * Anthropic Messages and Google's Gemini API natively; the model's prefix picks the route, the run
 * config's {@code model_kwargs.api_base} (which LiteLLM reads before any variable) the endpoint,
 * and the route's own variable the key (checked in LiteLLM's {@code main.py}, {@code
 * llms/anthropic/common_utils.py} and {@code llms/vertex_ai/vertex_llm_base.py}).
 *
 * <p>When a provider serves several styles the first of {@link #values()} it serves is taken:
 * OpenAI chat, then Anthropic, then Gemini. What the route gets is the provider's URL, which on a
 * metered run is the runner's meter, so every route is metered alike.
 */
enum LiteLlmRoute {
    /** {@code openai/<model>}; {@code api_base} is the {@code /v1} URL; the key as a bearer token. */
    OPENAI(ApiStyle.OPENAI, "openai/"),
    /**
     * {@code anthropic/<model>}; {@code api_base} is the root URL, to which LiteLLM adds {@code
     * /v1/messages}; the key as {@code x-api-key} ({@code ANTHROPIC_API_KEY}), or as a bearer token
     * ({@code ANTHROPIC_AUTH_TOKEN}) for a provider whose auth is {@link AuthScheme#BEARER}.
     */
    ANTHROPIC(ApiStyle.ANTHROPIC, "anthropic/"),
    /**
     * {@code gemini/<model>}; {@code api_base} is the root URL with {@code /v1beta}, to which
     * LiteLLM adds {@code /models/<model>:generateContent}; the key as {@code x-goog-api-key}
     * ({@code GEMINI_API_KEY}, which LiteLLM wants even for a keyless endpoint).
     */
    GEMINI(ApiStyle.GEMINI, "gemini/");

    private final ApiStyle style;
    private final String prefix;

    LiteLlmRoute(ApiStyle style, String prefix) {
        this.style = style;
        this.prefix = prefix;
    }

    /** The model as LiteLLM is given it: the route's prefix, then the run's model. */
    String model(String model) {
        return prefix + model;
    }

    /** The endpoint as LiteLLM wants it for this route. */
    String apiBase(ResolvedProvider provider) {
        return switch (this) {
            case OPENAI -> provider.v1Url();
            case ANTHROPIC -> provider.rootUrl();
            case GEMINI -> provider.rootUrl().endsWith("/v1beta") ? provider.rootUrl() : provider.rootUrl() + "/v1beta";
        };
    }

    /** The variable the key goes in. */
    String keyEnv(ResolvedProvider provider) {
        return switch (this) {
            case OPENAI -> "OPENAI_API_KEY";
            case ANTHROPIC -> provider.auth() == AuthScheme.BEARER && provider.secret() != null
                    ? "ANTHROPIC_AUTH_TOKEN" : "ANTHROPIC_API_KEY";
            case GEMINI -> "GEMINI_API_KEY";
        };
    }

    /** The route for a provider: the first of {@link #values()} it serves, or empty when none. */
    static Optional<LiteLlmRoute> of(ResolvedProvider provider) {
        for (LiteLlmRoute r : values()) {
            if (provider.serves(r.style)) {
                return Optional.of(r);
            }
        }
        return Optional.empty();
    }

    /** Why mini-swe-agent cannot run on this provider (see {@link MiniSweAgentHarness#unsupported}), or empty. */
    static Optional<String> unsupported(ResolvedProvider provider) {
        if (provider.usesCliLogin()) {
            return Optional.of("mini-swe-agent cannot use provider '" + provider.name() + "', the CLI's own login: "
                    + "mini-swe-agent has no login of its own: it reaches its model only through the endpoint and key "
                    + "it is given; configure the provider with a base_url (and key_env)");
        }
        if (of(provider).isEmpty()) {
            return Optional.of("mini-swe-agent cannot talk to provider '" + provider.name() + "': it serves "
                    + provider.apiStyles() + ", but mini-swe-agent speaks OpenAI Chat Completions, Anthropic Messages "
                    + "or Google's Gemini API (through LiteLLM); declare the endpoint's OpenAI-compatible API if it has "
                    + "one (most Ollama-style servers offer one at /v1), or run this provider with another harness");
        }
        return Optional.empty();
    }
}
