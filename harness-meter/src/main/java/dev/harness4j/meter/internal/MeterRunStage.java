package dev.harness4j.meter.internal;

import dev.harness4j.api.ProviderResolver;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.Secret;
import dev.harness4j.api.Termination;
import dev.harness4j.core.MeterSummary;
import dev.harness4j.core.internal.run.CoreKeys;
import dev.harness4j.core.internal.trajectory.RunTrajectory;
import dev.harness4j.core.pipeline.RunChain;
import dev.harness4j.core.pipeline.RunContext;
import dev.harness4j.core.pipeline.RunControl;
import dev.harness4j.core.pipeline.RunKeys;
import dev.harness4j.core.pipeline.RunOutcome;
import dev.harness4j.core.pipeline.RunStage;
import dev.harness4j.core.pipeline.RunStore;
import dev.harness4j.core.pipeline.Slot;
import dev.harness4j.core.provider.ModelPrice;
import dev.harness4j.core.provider.PriceList;
import dev.harness4j.core.stages.WireStages.MeterSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The working {@code MeterStage}, for runs whose provider has an endpoint ({@code MeterStage} itself
 * answers for a harness without a provider and a CLI's own login): the provider's base URL points
 * at the loopback meter (started with the first run, closed with the runner), the wire's figures
 * become the run's, and the wire stops act through the guard. Thread-safe: one instance serves
 * every run of a runner.
 */
public final class MeterRunStage implements RunStage {
    private static final String REQUESTS = "requests.jsonl";
    private static final String CREDENTIAL = "credential";
    private static final String HELD_BY = "held_by";

    private final MeterSettings settings;
    private Meter meter; // started by the first metered run; guarded by this
    private boolean closed; // guarded by this

    /**
     * A stage with the given settings.
     *
     * @param settings the meter stage's settings
     */
    public MeterRunStage(MeterSettings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    @Override
    public Slot slot() {
        return Slot.METER;
    }

    @Override
    public RunOutcome run(RunChain chain) throws InterruptedException {
        RunContext run = chain.run();
        RunStore store = chain.store();
        String model = run.model();
        ModelPrice price = price(store.require(CoreKeys.SERVICES).providers(), run.provider().name(), model)
                .orElse(null);
        if (price != null) {
            store.put(CoreKeys.PRICE, price);
        }
        RunControl control = chain.control();
        WireStop wireStop = WireStop.of(new WireStop.Rules(settings.stopAfterRateLimits(),
                settings.stopOnAuthFailure(), settings.stopAfterServerErrors()), run.harness(), control::stop);
        MeterRun.Hooks hooks = new MeterRun.Hooks() {
            @Override
            public void activity() {
                control.activity();
            }

            @Override
            public void budgetPassed(String reason) {
                control.stop(new Termination(Termination.Kind.BUDGET, reason));
            }

            @Override
            public void requestEnded(RequestRecord r) {
                wireStop.ended(r);
            }
        };
        Path io = store.require(RunKeys.IO_DIR);
        Meter m = meter();
        MeterRun metered = open(m, run, store.require(RunKeys.PROVIDER), hooks, price, io);
        Secret token = metered.provider().secret(); // in place of the real key, which stays in the meter
        store.require(RunKeys.SECRETS).add(token == null ? null : token.reveal());
        chain.outcome().section(CREDENTIAL, Map.of(HELD_BY, token == null ? "none" : "meter"));
        store.put(RunKeys.PROVIDER, metered.provider());
        store.put(RunKeys.METER_PORT, m.port());
        store.put(CoreKeys.REQUESTS, io.resolve(REQUESTS));
        RunOutcome out;
        MeterReport wire;
        try {
            out = chain.proceed();
        } finally {
            wire = metered.finish();
            store.put(MeterKeys.WIRE, wire);
        }
        if (out.process() != null) {
            out.meter(new MeterSummary(wire.requests(), wire.modelRequests(), wire.measuredRequests(), wire.tokens(),
                    wire.answered(), wire.budgetPassed()));
        }
        if (!out.aborted() && out.harnessRan()) {
            WireTruth.Applied applied = WireTruth.apply(out.result(), wire, model, price, out.termination(),
                    run.harness().completionMode());
            out.result(wireStop.settle(applied.result()));
            applied.notes().forEach(out::note);
        }
        return out;
    }

    private MeterRun open(Meter m, RunContext run, ResolvedProvider seen, MeterRun.Hooks hooks, ModelPrice price,
            Path io) {
        try {
            if (settings.recordBodies()) {
                return m.open(run.runId(), seen, hooks, run.spec().limits(), price, io.resolve(REQUESTS),
                        io.resolve(RunTrajectory.BODIES), BodyRecorder.MAX_BODY_BYTES);
            }
            return m.open(run.runId(), seen, hooks, run.spec().limits(), price, io.resolve(REQUESTS));
        } catch (IOException e) {
            throw new UncheckedIOException("could not open the run's requests.jsonl in " + io, e);
        }
    }

    /**
     * The price of a model: this stage's table, else the first resolver that is also a {@link
     * PriceList} and knows it; empty when none does.
     */
    private Optional<ModelPrice> price(List<ProviderResolver> resolvers, String provider, String model) {
        Optional<ModelPrice> p = settings.prices().price(provider, model);
        for (ProviderResolver r : resolvers) {
            if (p.isPresent()) {
                break;
            }
            if (r instanceof PriceList list) {
                p = list.price(provider, model);
            }
        }
        return p;
    }

    /** The meter, started on first use. */
    private synchronized Meter meter() {
        if (closed) {
            throw new IllegalStateException("this HarnessRunner is closed");
        }
        if (meter == null) {
            meter = Meter.start();
        }
        return meter;
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (meter != null) {
            meter.close();
        }
    }
}
