package dev.harness4j.core.stages;

import dev.harness4j.api.ProviderResolver;
import dev.harness4j.core.internal.run.CoreKeys;
import dev.harness4j.core.pipeline.RunChain;
import dev.harness4j.core.pipeline.RunOutcome;
import dev.harness4j.core.pipeline.RunStage;
import dev.harness4j.core.pipeline.Slot;
import dev.harness4j.core.provider.GatewayOptions;
import dev.harness4j.core.provider.Providers;
import java.util.List;
import java.util.Objects;

/**
 * Accounts runs on a provider with a gateway ({@code "gateway": {"type": "litellm", ...}} in
 * providers.json): a per-run key minted before the run (the agent gets it in place of the
 * configured one), the run's spend read after it until two consecutive reads agree (tokens with
 * source {@code gateway}), the key revoked; {@code meta.json}'s {@code gateway} says how it went.
 * No gateway failure fails a run. A run on a provider without a gateway is left alone.
 *
 * <p>This class holds the options; the accounting is in harness-meter ({@code
 * dev.harness4j:harness-meter}), found through {@link java.util.ServiceLoader} ({@link WireStages}).
 * Without it a run on a provider with a gateway keeps the configured key and its note says the
 * spend was not settled.
 */
public final class GatewayStage implements RunStage {
    private final GatewayOptions options;
    private RunStage delegate; // harness-meter's, made by the first run; guarded by this
    private boolean looked; // whether the first run looked for it; guarded by this

    private GatewayStage(GatewayOptions options) {
        this.options = options;
    }

    /**
     * The stage with the given options.
     *
     * @param options how spend is read and keys are minted
     * @return the stage
     */
    public static GatewayStage of(GatewayOptions options) {
        return new GatewayStage(Objects.requireNonNull(options, "gateway"));
    }

    /** Returns the options. */
    public GatewayOptions options() {
        return options;
    }

    @Override
    public Slot slot() {
        return Slot.GATEWAY;
    }

    @Override
    public String name() {
        return slot().wireName();
    }

    @Override
    public RunOutcome run(RunChain chain) throws InterruptedException {
        RunStage working = delegate();
        if (working != null) {
            return working.run(chain);
        }
        if (hasGateway(chain.store().require(CoreKeys.SERVICES).providers(), chain.run().provider().name())) {
            chain.outcome().note("gateway: spend not settled: harness-meter is not on the class path; add "
                    + WireLookup.ARTIFACT + " to mint a per-run key and read the run's spend (the run used the "
                    + "provider's configured key)");
        }
        return chain.proceed();
    }

    /** Whether the resolver that answers for the provider, as a run resolves it, gives it a gateway. */
    private static boolean hasGateway(List<ProviderResolver> resolvers, String provider) {
        for (ProviderResolver r : resolvers) {
            if (r.providerNames().contains(provider)) {
                return r instanceof Providers p && p.config(provider).filter(c -> c.gateway() != null).isPresent();
            }
        }
        return false;
    }

    /** harness-meter's stage for these options, looked for once; null (warned once) when it is missing. */
    private synchronized RunStage delegate() {
        if (!looked) {
            looked = true;
            delegate = WireLookup.find().map(w -> w.gateway(options)).orElse(null);
            if (delegate == null) {
                WireLookup.warnMissing();
            }
        }
        return delegate;
    }

    @Override
    public synchronized void close() {
        if (delegate != null) {
            delegate.close();
        }
    }
}
