/**
 * Provider endpoints: the default {@link dev.harness4j.api.ProviderResolver}, {@link
 * dev.harness4j.core.provider.Providers}, with configs in code ({@link
 * dev.harness4j.core.provider.ProviderConfig}) or in {@code <stateDir>/config/providers.json}
 * ({@link dev.harness4j.core.provider.ProvidersFile}), model precedence (requested, else {@code
 * default_model}, else fail fast listing the catalogue), model-catalogue fetches and
 * authenticated health checks. Configs hold environment variable names, never keys.
 *
 * <p>Examples, as JSON (the file {@code dev/harness4j/core/provider/providers-example.json} in
 * this jar holds them all):
 *
 * <pre>{@code
 * // Anthropic: key sent as x-api-key
 * { "name": "anthropic", "api_styles": ["anthropic"], "base_url": "https://api.anthropic.com",
 *   "key_env": "ANTHROPIC_API_KEY", "auth": "api_key",
 *   "models": ["claude-haiku-4-5", "claude-sonnet-4-5"], "default_model": "claude-sonnet-4-5" }
 *
 * // an OpenAI-compatible endpoint: base URL may end in /v1, key sent as a bearer token
 * { "name": "openai", "api_styles": ["openai"], "base_url": "https://api.openai.com/v1",
 *   "key_env": "OPENAI_API_KEY", "auth": "bearer", "default_model": "gpt-4.1-mini" }
 *
 * // Ollama: no key; its catalogue comes from /api/tags
 * { "name": "ollama", "api_styles": ["ollama", "openai"], "base_url": "http://127.0.0.1:11434",
 *   "default_model": "qwen2.5-coder:7b", "health_path": "/api/version" }
 *
 * // a LiteLLM gateway serving both styles; the admin (master) key's variable is named too
 * { "name": "litellm", "api_styles": ["anthropic", "openai"], "base_url": "http://127.0.0.1:4000",
 *   "key_env": "LITELLM_API_KEY", "auth": "bearer", "health_path": "/health/readiness",
 *   "gateway": { "type": "litellm", "admin_key_env": "LITELLM_MASTER_KEY" } }
 * }</pre>
 *
 * <p>In code, the scripted model server of harness-testkit (the embedded default) is {@code
 * ProviderConfig.scripted(server.baseUrl(), "scripted-a")}.
 */
package dev.harness4j.core.provider;
