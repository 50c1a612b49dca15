package dev.harness4j.core.provider;

import java.net.URI;
import java.util.List;
import java.util.Objects;

/**
 * A provider's model catalogue as one of its endpoints answered it.
 *
 * @param provider the provider's name
 * @param endpoint the URL that answered, e.g. {@code http://127.0.0.1:11434/api/tags}
 * @param shape which list shape it answered in
 * @param models the model ids, de-duplicated and sorted
 */
public record Catalogue(String provider, URI endpoint, Shape shape, List<String> models) {

    public Catalogue {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(shape, "shape");
        models = List.copyOf(models);
    }

    /** The model-list shapes understood. */
    public enum Shape {
        /** OpenAI / Anthropic / LiteLLM {@code GET /v1/models}: {@code {"data": [{"id": ...}]}}. */
        DATA_IDS,
        /** Ollama {@code GET /api/tags}: {@code {"models": [{"name": ...}]}}. */
        MODELS_NAMES,
        /**
         * Google's Gemini API {@code GET /v1beta/models}: {@code {"models": [{"name": "models/<id>"}]}},
         * the ids without {@code models/}.
         */
        GEMINI_MODELS
    }
}
