package dev.harness4j.core;

import dev.harness4j.api.ProviderNotResolvableException;
import dev.harness4j.api.ProviderResolver;
import dev.harness4j.api.ResolvedProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A runner's provider resolvers, asked in order: the first non-empty answer wins. Immutable. */
record ProviderLookup(List<ProviderResolver> resolvers) {
    private static final Logger log = LoggerFactory.getLogger(ProviderLookup.class);

    ProviderLookup {
        resolvers = List.copyOf(resolvers);
    }

    /**
     * The given resolvers, then (when {@code discover}) every {@link ProviderResolver} registered in
     * {@code META-INF/services} (an installed resolver jar adds providers without code); one that
     * fails to load is logged and left out.
     */
    static ProviderLookup of(List<ProviderResolver> given, boolean discover) {
        List<ProviderResolver> all = new ArrayList<>(given);
        if (discover) {
            ClassLoader cl = Thread.currentThread().getContextClassLoader();
            var it = ServiceLoader.load(ProviderResolver.class, cl != null ? cl : ProviderLookup.class.getClassLoader())
                    .stream().iterator();
            while (true) {
                try {
                    if (!it.hasNext()) {
                        break;
                    }
                    all.add(it.next().get());
                } catch (ServiceConfigurationError | RuntimeException | LinkageError e) {
                    log.warn("a ProviderResolver registered in META-INF/services could not be loaded; left out: {}",
                            e.toString());
                }
            }
        }
        return new ProviderLookup(all);
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
