package dev.harness4j.api;

import java.util.Optional;
import java.util.Set;

/**
 * SPI that turns a provider name and a requested model into a {@link ResolvedProvider}.
 *
 * <p>Model precedence is one rule everywhere: the run's requested model, else the provider's
 * default model, else the provider cannot be resolved (never a silent fallback to some CLI's
 * built-in default). Implementations are thread-safe.
 */
public interface ProviderResolver {

    /**
     * Resolves a provider.
     *
     * @param provider the provider name from the run spec
     * @param requestedModel the run's model, or {@code null} for the provider's default
     * @return empty when this resolver does not know the provider (the next resolver is asked)
     * @throws ProviderNotResolvableException when it knows the provider but cannot resolve it:
     *     no model, a missing environment variable, a malformed endpoint
     */
    Optional<ResolvedProvider> resolve(String provider, String requestedModel);

    /**
     * The provider names this resolver knows, for error messages.
     *
     * @return the provider names
     */
    Set<String> providerNames();
}
