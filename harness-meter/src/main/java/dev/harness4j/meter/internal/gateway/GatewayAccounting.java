package dev.harness4j.meter.internal.gateway;

import dev.harness4j.api.HarnessException;
import dev.harness4j.api.ProviderResolver;
import dev.harness4j.api.RunSpec;
import dev.harness4j.api.Secret;
import dev.harness4j.core.provider.GatewayOptions;
import dev.harness4j.core.provider.ProviderConfig;
import dev.harness4j.core.provider.Providers;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A runner's gateway accounting: for a run whose provider has a gateway, mints the run's key
 * before it starts ({@link #open}); the returned {@link GatewayRun} reads the spend and revokes
 * the key after it ends. Only the runner's runs mint: catalogue fetches and health checks
 * authenticate with the admin key itself. Immutable, thread-safe.
 */
public final class GatewayAccounting {
    private static final Logger log = LoggerFactory.getLogger(GatewayAccounting.class);

    private final List<ProviderResolver> resolvers;
    private final GatewayOptions options;
    private java.net.http.HttpClient http; // created on first use (most runners have no gateway); guarded by this

    public GatewayAccounting(List<ProviderResolver> resolvers, GatewayOptions options) {
        this.resolvers = List.copyOf(resolvers);
        this.options = Objects.requireNonNull(options, "options");
    }

    /** The admin requests' client, shared by this runner's runs. */
    private synchronized java.net.http.HttpClient http() {
        if (http == null) {
            http = LiteLlmAdmin.client(options.requestTimeout());
        }
        return http;
    }

    public GatewayOptions options() {
        return options;
    }

    /**
     * Opens gateway accounting for one run: {@link GatewayRun#NONE} when the provider has no
     * gateway; otherwise a run holding a freshly minted key, or a degraded one (the configured
     * key stays) saying why minting failed. Never throws but for an interrupt.
     */
    public GatewayRun open(String provider, String runId, RunSpec spec) throws InterruptedException {
        Optional<Found> found = find(provider);
        if (found.isEmpty()) {
            return GatewayRun.NONE;
        }
        ProviderConfig config = found.get().config();
        ProviderConfig.Gateway gateway = config.gateway();
        Secret admin;
        try {
            admin = found.get().providers().adminKey(provider);
        } catch (HarnessException e) { // the variable is unset: the message names it, never a value
            return GatewayRun.degraded(gateway, options, "no per-run key: " + e.getMessage()
                    + "; the run used the provider's configured key");
        }
        LiteLlmAdmin api = new LiteLlmAdmin(http(), config.rootUrl(), admin, options.requestTimeout());
        Duration lifetime = options.keyLifetime(spec.limits() == null ? null : spec.limits().maxRuntime());
        Map<String, String> metadata = new LinkedHashMap<>();
        metadata.put("harness4j_run_id", runId);
        metadata.put("harness4j_task", spec.task() == null ? "default" : spec.task());
        metadata.put("harness4j_harness", spec.harness());
        List<String> tags = List.of("harness4j", "harness4j-run:" + runId,
                "harness4j-task:" + (spec.task() == null ? "default" : spec.task()));
        try {
            LiteLlmAdmin.MintedKey key = api.mint(lifetime, metadata, tags, "harness4j-" + runId);
            log.debug("run {}: minted a per-run key at the {} gateway of provider {} (lifetime {})", runId,
                    gateway.type().wireName(), provider, lifetime);
            return GatewayRun.minted(gateway, options, api, key, lifetime);
        } catch (GatewayException e) {
            log.info("run {}: minting a per-run key at the gateway of provider {} failed: {}", runId, provider,
                    e.getMessage());
            return GatewayRun.degraded(gateway, options, "minting a per-run key failed (" + e.getMessage()
                    + "); the run used the provider's configured key");
        }
    }

    private record Found(Providers providers, ProviderConfig config) {}

    /** The gateway config of the resolver that answers for this provider, as a run resolves it. */
    private Optional<Found> find(String provider) {
        for (ProviderResolver r : resolvers) {
            if (!r.providerNames().contains(provider)) {
                continue;
            }
            if (r instanceof Providers p) {
                return p.config(provider).filter(c -> c.gateway() != null).map(c -> new Found(p, c));
            }
            return Optional.empty();
        }
        return Optional.empty();
    }
}
