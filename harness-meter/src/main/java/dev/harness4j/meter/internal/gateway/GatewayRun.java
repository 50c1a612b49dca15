package dev.harness4j.meter.internal.gateway;

import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.meter.internal.MeterReport;
import dev.harness4j.core.provider.GatewayOptions;
import dev.harness4j.core.provider.ProviderConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run's gateway accounting: the minted key the CLI is given ({@link #provider}), then after
 * the run ({@link #finish}) its spend logs read until two consecutive reads agree, the figures put
 * into the result ({@link GatewayTruth}) and the key revoked. A degraded run (no key minted) keeps
 * the configured key and says why. Nothing here throws but for an interrupt.
 */
public final class GatewayRun {
    private static final Logger log = LoggerFactory.getLogger(GatewayRun.class);

    /** No gateway: nothing minted, nothing to read. */
    public static final GatewayRun NONE = new GatewayRun(null, null, null, null, null, null);

    private final ProviderConfig.Gateway gateway;
    private final GatewayOptions options;
    private final LiteLlmAdmin api;
    private final LiteLlmAdmin.MintedKey key;
    private final Duration lifetime;
    private final String degraded;

    private GatewayRun(ProviderConfig.Gateway gateway, GatewayOptions options, LiteLlmAdmin api,
            LiteLlmAdmin.MintedKey key, Duration lifetime, String degraded) {
        this.gateway = gateway;
        this.options = options;
        this.api = api;
        this.key = key;
        this.lifetime = lifetime;
        this.degraded = degraded;
    }

    static GatewayRun minted(ProviderConfig.Gateway gateway, GatewayOptions options, LiteLlmAdmin api,
            LiteLlmAdmin.MintedKey key, Duration lifetime) {
        return new GatewayRun(gateway, options, api, key, lifetime, null);
    }

    static GatewayRun degraded(ProviderConfig.Gateway gateway, GatewayOptions options, String why) {
        return new GatewayRun(gateway, options, null, null, null, why);
    }

    /** Whether the provider has a gateway at all. */
    public boolean active() {
        return gateway != null;
    }

    /**
     * The texts the run must redact: the minted key and, in depth, the admin key (which no message
     * or file holds in the first place); empty when nothing was minted.
     */
    public List<String> secrets() {
        return key == null ? List.of() : List.of(key.key().reveal(), api.adminKey());
    }

    /** The provider as the CLI gets it: with the minted key in place of the configured one. */
    public ResolvedProvider provider(ResolvedProvider configured) {
        if (key == null) {
            return configured;
        }
        return new ResolvedProvider(configured.name(), configured.apiStyles(), configured.baseUrl(), key.key(),
                configured.auth(), configured.model());
    }

    /**
     * What the gateway adds to a finished run.
     *
     * @param result the run's result so far (the meter's figures applied)
     * @param notes what to add to the run's notes
     * @param section {@code meta.json}'s {@code gateway} section
     */
    public record Applied(HarnessResult result, List<String> notes, Map<String, Object> section) {}

    /**
     * Reads the run's spend until two consecutive reads agree (or the budget is spent), applies
     * it to {@code result} and revokes the key; for a degraded run only says so.
     *
     * @param result the run's result so far
     * @param wire what the meter saw, or null when the run was not metered
     * @param model the model the run asked for
     * @param ran whether the harness process ran; when it did not, the key is only revoked
     */
    public Applied finish(HarnessResult result, MeterReport wire, String model, boolean ran)
            throws InterruptedException {
        Map<String, Object> section = new LinkedHashMap<>();
        section.put("type", gateway.type().wireName());
        List<String> notes = new ArrayList<>();
        String fallback = wire != null && wire.modelRequests() > 0 ? "the meter's" : "the adapter's";
        if (key == null) {
            section.put("status", "degraded");
            section.put("key", "configured");
            section.put("reason", degraded);
            notes.add("gateway degraded: " + degraded + "; tokens are " + fallback);
            return new Applied(result, notes, section);
        }
        section.put("key", "minted");
        section.put("key_lifetime_s", lifetime.toSeconds());
        if (!ran || result == null) {
            section.put("status", "not-run");
            revoke(section, notes);
            return new Applied(result, notes, section);
        }
        boolean emptyCanSettle = wire != null && wire.modelRequests() == 0;
        SpendSettle.Result settled;
        try {
            settled = SpendSettle.settle(() -> api.spend(key), options.settleBudget(), options.pollInterval(),
                    emptyCanSettle);
        } finally {
            revoke(section, notes);
        }
        section.put("polls", settled.polls());
        section.put("rows_per_poll", settled.rowsPerPoll());
        section.put("settle_ms", settled.elapsed().toMillis());
        if (settled.lastError() != null) {
            section.put("last_error", settled.lastError());
        }
        SpendSnapshot best = settled.best();
        if (best == null) {
            section.put("status", "unreadable");
            notes.add("gateway: the spend logs could not be read (" + settled.lastError() + "); tokens are " + fallback);
            return new Applied(result, notes, section);
        }
        section.put("status", settled.settled() ? "settled" : "unsettled");
        section.put("rows", best.rowCount());
        section.put("models", best.models());
        section.put("tokens", GatewayTruth.tokens(best.tokens()));
        section.put("spend_usd", best.spend());
        if (!settled.settled()) {
            notes.add("gateway: the spend logs did not settle within the budget of " + options.settleBudget().toSeconds()
                    + " s (" + settled.polls() + " reads); kept the best snapshot (" + best.rowCount()
                    + " rows), which may be partial");
        }
        if (best.isEmpty()) {
            notes.add("gateway: no spend row for the run's key; tokens are " + fallback);
            return new Applied(result, notes, section);
        }
        GatewayTruth.Applied applied = GatewayTruth.apply(result, best, settled.settled(), wire, model,
                options.tolerance());
        if (applied.comparison() != null) {
            section.put("compared_with_metered", applied.comparison());
        }
        notes.addAll(applied.notes());
        return new Applied(applied.result(), notes, section);
    }

    private void revoke(Map<String, Object> section, List<String> notes) throws InterruptedException {
        try {
            api.revoke(key);
            section.put("revoked", true);
        } catch (GatewayException e) {
            section.put("revoked", false);
            notes.add("gateway: revoking the run's key failed (" + e.getMessage() + "); it expires by itself after "
                    + lifetime.toSeconds() + " s");
            log.info("revoking a per-run gateway key failed: {}", e.getMessage());
        }
    }
}
