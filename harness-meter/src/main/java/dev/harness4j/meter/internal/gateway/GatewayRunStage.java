package dev.harness4j.meter.internal.gateway;

import dev.harness4j.api.NotLoggedInException;
import dev.harness4j.core.internal.capture.Redactor;
import dev.harness4j.core.internal.run.CoreKeys;
import dev.harness4j.core.pipeline.RunChain;
import dev.harness4j.core.pipeline.RunContext;
import dev.harness4j.core.pipeline.RunKeys;
import dev.harness4j.core.pipeline.RunOutcome;
import dev.harness4j.core.pipeline.RunSecrets;
import dev.harness4j.core.pipeline.RunStage;
import dev.harness4j.core.pipeline.RunStore;
import dev.harness4j.core.pipeline.Slot;
import dev.harness4j.core.provider.GatewayOptions;
import dev.harness4j.meter.internal.MeterKeys;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The working {@code GatewayStage}: a per-run key minted before the run, the run's spend read
 * after it, the key revoked. No gateway failure fails a run. Thread-safe: one instance serves
 * every run of a runner.
 */
public final class GatewayRunStage implements RunStage {
    private static final Logger log = LoggerFactory.getLogger(GatewayRunStage.class);

    private final GatewayOptions options;
    private GatewayAccounting accounting; // made with the first run's resolvers; guarded by this

    /**
     * A stage with the given options.
     *
     * @param options how spend is read and keys are minted
     */
    public GatewayRunStage(GatewayOptions options) {
        this.options = Objects.requireNonNull(options, "options");
    }

    @Override
    public Slot slot() {
        return Slot.GATEWAY;
    }

    @Override
    public RunOutcome run(RunChain chain) throws InterruptedException {
        RunContext run = chain.run();
        RunStore store = chain.store();
        GatewayRun gateway = accounting(chain).open(run.provider().name(), run.runId(), run.spec());
        if (!gateway.active()) {
            return chain.proceed();
        }
        RunSecrets secrets = store.require(RunKeys.SECRETS);
        secrets.addAll(gateway.secrets()); // redacted from transcripts, events and meta.json
        store.put(RunKeys.PROVIDER, gateway.provider(store.require(RunKeys.PROVIDER)));
        RunOutcome out;
        try {
            out = chain.proceed();
        } catch (NotLoggedInException | Error e) { // no result: only revoke the key
            settle(chain, gateway, false);
            throw e;
        }
        settle(chain, gateway, out.harnessRan());
        return out;
    }

    /** Reads the gateway's spend for the run and revokes its key; never fails the run. */
    private void settle(RunChain chain, GatewayRun gateway, boolean ran) {
        RunOutcome out = chain.outcome();
        try {
            GatewayRun.Applied applied = gateway.finish(out.result(), chain.store().get(MeterKeys.WIRE).orElse(null),
                    chain.run().model(), ran);
            if (applied.result() != null) {
                out.result(applied.result());
            }
            applied.notes().forEach(out::note);
            out.section("gateway", applied.section());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            out.note("gateway: interrupted while reading the run's spend; tokens are not the gateway's");
        } catch (RuntimeException e) {
            String message = Redactor.of(chain.store().require(RunKeys.SECRETS).values())
                    .redact(String.valueOf(e.getMessage()));
            log.warn("run {}: gateway accounting failed: {}", chain.run().runId(), message);
            out.note("gateway: accounting failed (" + e.getClass().getSimpleName() + ": " + message + ")");
        }
    }

    private synchronized GatewayAccounting accounting(RunChain chain) {
        if (accounting == null) {
            accounting = new GatewayAccounting(chain.store().require(CoreKeys.SERVICES).providers(), options);
        }
        return accounting;
    }
}
