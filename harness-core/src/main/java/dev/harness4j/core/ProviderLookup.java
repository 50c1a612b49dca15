package dev.harness4j.core;

import dev.harness4j.api.ProviderNotResolvableException;
import dev.harness4j.api.ProviderResolver;
import dev.harness4j.api.ResolvedProvider;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/** A runner's provider resolvers, asked in order: the first non-empty answer wins. Immutable. */
record ProviderLookup(List<ProviderResolver> resolvers) {
    ProviderLookup {
        resolvers = List.copyOf(resolvers);
    }

    /**
     * Resolves a provider and model.
     *
     * @throws ProviderNotResolvableException when no resolver knows it; the message lists the known providers
     */
    ResolvedProvider resolve(String provider, String model) {
        Set<String> known = new TreeSet<>();
        for (ProviderResolver r : resolvers) {
            Optional<ResolvedProvider> p = r.resolve(provider, model);
            if (p.isPresent()) {
                return p.get();
            }
            known.addAll(r.providerNames());
        }
        throw new ProviderNotResolvableException(provider, "unknown provider '" + provider + "'; known providers: "
                + known + " (configure it, or add a ProviderResolver with HarnessRunner.builder().providers(..))");
    }
}
