package dev.harness4j.core;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.api.ProviderResolver;
import dev.harness4j.api.ResolvedProvider;
import java.net.URI;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/** A resolver registered in this module's test {@code META-INF/services}: provider {@code service-loaded}. */
public final class ServiceLoadedResolver implements ProviderResolver {
    /** The provider it knows. */
    public static final String NAME = "service-loaded";

    @Override
    public Optional<ResolvedProvider> resolve(String provider, String requestedModel) {
        return NAME.equals(provider) ? Optional.of(new ResolvedProvider(NAME, EnumSet.of(ApiStyle.OPENAI),
                URI.create("http://127.0.0.1:9"), null, AuthScheme.API_KEY,
                requestedModel != null ? requestedModel : "loaded-model")) : Optional.empty();
    }

    @Override
    public Set<String> providerNames() {
        return Set.of(NAME);
    }
}
