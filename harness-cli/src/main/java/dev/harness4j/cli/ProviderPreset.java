package dev.harness4j.cli;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.core.provider.ProviderConfig;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The presets of {@code harness4j providers add --preset}: what each writes into {@code
 * providers.json} (its API styles, base URL, the name of its key's environment variable, how the
 * key is sent, a default model, a health path, a gateway). {@code --base-url}, {@code --key-env}
 * and {@code --default-model} replace the preset's.
 */
enum ProviderPreset {
    ANTHROPIC(List.of(ApiStyle.ANTHROPIC), "https://api.anthropic.com", "ANTHROPIC_API_KEY", AuthScheme.API_KEY,
            "claude-sonnet-4-5", null, null),
    OPENAI(List.of(ApiStyle.OPENAI), "https://api.openai.com/v1", "OPENAI_API_KEY", AuthScheme.BEARER,
            "gpt-4.1-mini", null, null),
    OPENROUTER(List.of(ApiStyle.OPENAI), "https://openrouter.ai/api/v1", "OPENROUTER_API_KEY", AuthScheme.BEARER,
            "anthropic/claude-sonnet-4.5", null, null),
    GEMINI(List.of(ApiStyle.GEMINI), "https://generativelanguage.googleapis.com", "GEMINI_API_KEY",
            AuthScheme.API_KEY, "gemini-2.5-flash", null, null),
    OLLAMA(List.of(ApiStyle.OLLAMA, ApiStyle.OPENAI), "http://127.0.0.1:11434", null, null, null, "/api/version",
            null),
    LITELLM(List.of(ApiStyle.ANTHROPIC, ApiStyle.OPENAI), "http://127.0.0.1:4000", "LITELLM_API_KEY",
            AuthScheme.BEARER, null, "/health/readiness", "LITELLM_MASTER_KEY");

    private final List<ApiStyle> styles;
    private final String baseUrl;
    private final String keyEnv;
    private final AuthScheme auth;
    private final String defaultModel;
    private final String healthPath;
    private final String gatewayAdminKeyEnv;

    ProviderPreset(List<ApiStyle> styles, String baseUrl, String keyEnv, AuthScheme auth, String defaultModel,
            String healthPath, String gatewayAdminKeyEnv) {
        this.styles = styles;
        this.baseUrl = baseUrl;
        this.keyEnv = keyEnv;
        this.auth = auth;
        this.defaultModel = defaultModel;
        this.healthPath = healthPath;
        this.gatewayAdminKeyEnv = gatewayAdminKeyEnv;
    }

    /** The preset's name on the command line. */
    String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The provider {@code name} of this preset, with the given values where not {@code null}. */
    ProviderConfig config(String name, String baseUrlOverride, String keyEnvOverride, String defaultModelOverride) {
        ProviderConfig.Builder b = ProviderConfig.builder(name).apiStyles(styles)
                .baseUrl(baseUrlOverride != null ? baseUrlOverride : baseUrl)
                .defaultModel(defaultModelOverride != null ? defaultModelOverride : defaultModel)
                .healthPath(healthPath);
        String env = keyEnvOverride != null ? keyEnvOverride : keyEnv;
        if (env != null) {
            b.key(env, auth != null ? auth : AuthScheme.BEARER);
        }
        if (gatewayAdminKeyEnv != null) {
            b.gateway(ProviderConfig.Gateway.litellm(gatewayAdminKeyEnv));
        }
        return b.build();
    }

    /** One line of {@code --help}: what the preset sets. */
    String describe() {
        return String.format("  %-10s api_styles %s, base_url %s, %s%s%s%s", id(),
                styles.stream().map(s -> s.name().toLowerCase(Locale.ROOT)).collect(Collectors.joining("+")), baseUrl,
                keyEnv == null ? "no key" : "key_env " + keyEnv + " (" + auth.name().toLowerCase(Locale.ROOT) + ")",
                defaultModel == null ? "" : ", default_model " + defaultModel,
                healthPath == null ? "" : ", health_path " + healthPath,
                gatewayAdminKeyEnv == null ? "" : ", gateway litellm (admin_key_env " + gatewayAdminKeyEnv + ")");
    }

    /** Every preset's {@link #describe()} line. */
    static String describeAll() {
        return java.util.Arrays.stream(values()).map(ProviderPreset::describe)
                .collect(Collectors.joining(System.lineSeparator()));
    }
}
