package dev.harness4j.core.provider;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What {@link Providers#refresh(String)} did: the endpoint that answered, the models added and
 * removed, a {@code default_model} that is no longer served (left as is for the user to fix),
 * and the updated providers.
 *
 * @param provider the provider's name
 * @param endpoint the catalogue URL that answered
 * @param added model ids new in the catalogue, sorted
 * @param removed model ids no longer in the catalogue, sorted
 * @param vanishedDefaultModel the configured {@code default_model} when the endpoint no longer
 *     lists it, else {@code null}
 * @param config the provider's config with the new catalogue
 * @param writtenTo the providers file rewritten with the new catalogue, or {@code null} when the
 *     provider was configured in code
 * @param providers the resolver with the new catalogue (the old instance is unchanged)
 */
public record CatalogueRefresh(String provider, URI endpoint, List<String> added, List<String> removed,
        String vanishedDefaultModel, ProviderConfig config, Path writtenTo, Providers providers) {

    public CatalogueRefresh {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(endpoint, "endpoint");
        added = List.copyOf(added);
        removed = List.copyOf(removed);
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(providers, "providers");
    }

    /** Whether the configured default model is no longer in the catalogue. */
    public boolean defaultModelVanished() {
        return vanishedDefaultModel != null;
    }

    /** Whether the catalogue changed. */
    public boolean changed() {
        return !added.isEmpty() || !removed.isEmpty();
    }

    public Optional<Path> file() {
        return Optional.ofNullable(writtenTo);
    }
}
