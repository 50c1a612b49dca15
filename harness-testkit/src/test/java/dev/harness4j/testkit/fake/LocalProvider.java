package dev.harness4j.testkit.fake;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.api.ProviderResolver;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.Secret;
import java.net.URI;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/** Resolves provider {@code scripted} to a loopback endpoint with a key; the fake never calls it. */
final class LocalProvider implements ProviderResolver {
    private final String key;

    LocalProvider(String key) {
        this.key = key;
    }

    @Override
    public Optional<ResolvedProvider> resolve(String provider, String requestedModel) {
        if (!provider.equals("scripted")) {
            return Optional.empty();
        }
        return Optional.of(new ResolvedProvider("scripted", EnumSet.of(ApiStyle.OPENAI, ApiStyle.ANTHROPIC),
                URI.create("http://127.0.0.1:9"), Secret.of(key), AuthScheme.API_KEY,
                requestedModel == null ? "fake-model" : requestedModel));
    }

    @Override
    public Set<String> providerNames() {
        return Set.of("scripted");
    }
}
