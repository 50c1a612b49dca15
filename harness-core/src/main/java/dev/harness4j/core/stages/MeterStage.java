package dev.harness4j.core.stages;

import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.Secret;
import dev.harness4j.api.Termination;
import dev.harness4j.core.MeterSummary;
import dev.harness4j.core.internal.meter.BodyRecorder;
import dev.harness4j.core.internal.meter.Meter;
import dev.harness4j.core.internal.meter.MeterReport;
import dev.harness4j.core.internal.meter.MeterRun;
import dev.harness4j.core.internal.meter.WireStop;
import dev.harness4j.core.internal.meter.RequestRecord;
import dev.harness4j.core.internal.meter.WireTruth;
import dev.harness4j.core.internal.run.CoreKeys;
import dev.harness4j.core.internal.trajectory.RunTrajectory;
import dev.harness4j.api.ProviderResolver;
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
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Meters each run's model traffic: the adapter is handed the provider with its base URL pointing
 * at a loopback proxy (started with the first run, closed with the runner), which forwards byte
 * for byte to the real endpoint and measures tokens, answering models, errors and rate limits on
 * the way ({@code requests.jsonl}); budgets and the wire stops (a refused key, 429s or failures in
 * a row, see {@link Builder#stopOnAuthFailure}) act through the guard. After
 * the run, the wire's figures become the run's (the adapter's stay beside them), its error class
 * refines an opaque CLI's outcome, and a cost comes from {@link Builder#prices} when the model
 * has a price. A provider that is the CLI's own login has no endpoint to proxy: noted, not metered.
 *
 * <p>The agent never holds the provider's key (nor a gateway's per-run key): its provider's secret
 * is a random per-run token, a run secret, that works only on the run's meter path while the run
 * is live; the meter sends the real key upstream. meta.json's {@code credential} says where the
 * key was: {@code {"held_by": "meter"}}, {@code "none"} for a keyless provider, {@code "agent
 * environment"} for the CLI's own login.
 *
 * <pre>{@code
 * HarnessRunner.builder().stage(MeterStage.builder().recordBodies(true).stopAfterRateLimits(3).build())
 * }</pre>
 */
public final class MeterStage implements RunStage {
    private static final String REQUESTS = "requests.jsonl";
    private static final String CREDENTIAL = "credential";
    private static final String HELD_BY = "held_by";

    private final boolean recordBodies;
    private final Integer stopAfterRateLimits;
    private final boolean stopOnAuthFailure;
    private final Integer stopAfterServerErrors;
    private final PriceList prices;
    private Meter meter; // started by the first metered run; guarded by this
    private boolean closed; // guarded by this

    private MeterStage(Builder b) {
        this.recordBodies = b.recordBodies;
        this.stopAfterRateLimits = b.stopAfterRateLimits;
        this.stopOnAuthFailure = b.stopOnAuthFailure;
        this.stopAfterServerErrors = b.stopAfterServerErrors;
        this.prices = b.prices;
    }

    /** Returns a builder: no bodies kept, the adapters' rate-limit stops, no prices. */
    public static Builder builder() {
        return new Builder();
    }

    /** Returns whether model call bodies are kept. */
    public boolean recordBodies() {
        return recordBodies;
    }

    /** Returns the rate-limit stop setting, or empty for each adapter's own. */
    public Optional<Integer> stopAfterRateLimits() {
        return Optional.ofNullable(stopAfterRateLimits);
    }

    /** Returns whether the first 401/403 on a model request stops a run. */
    public boolean stopOnAuthFailure() {
        return stopOnAuthFailure;
    }

    /** Returns how many failed model requests in a row (5xx or no answer) stop a run. */
    public int stopAfterServerErrors() {
        return stopAfterServerErrors != null ? stopAfterServerErrors : WireStop.DEFAULT_SERVER_ERRORS;
    }

    /** Returns the price table. */
    public PriceList prices() {
        return prices;
    }

    @Override
    public Slot slot() {
        return Slot.METER;
    }

    @Override
    public String name() {
        return slot().wireName();
    }

    @Override
    public RunOutcome run(RunChain chain) throws InterruptedException {
        RunContext run = chain.run();
        RunStore store = chain.store();
        if (!run.harness().needsProvider()) { // a reference harness (nop, oracle): no model, nothing to meter
            chain.outcome().section(CREDENTIAL, Map.of(HELD_BY, "none"));
            return chain.proceed();
        }
        if (run.provider().usesCliLogin()) {
            chain.outcome().note("the wire was not metered: provider " + run.provider().name() + " is the CLI's own "
                    + "login and has no endpoint to proxy; tokens, cost and served model are the adapter's");
            chain.outcome().section(CREDENTIAL, Map.of(HELD_BY, "agent environment"));
            return chain.proceed();
        }
        String model = run.model();
        ModelPrice price = price(store.require(CoreKeys.SERVICES).providers(), run.provider().name(), model)
                .orElse(null);
        if (price != null) {
            store.put(CoreKeys.PRICE, price);
        }
        RunControl control = chain.control();
        WireStop wireStop = WireStop.of(new WireStop.Rules(stopAfterRateLimits, stopOnAuthFailure,
                stopAfterServerErrors), run.harness(), control::stop);
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
            store.put(CoreKeys.WIRE, wire);
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
            if (recordBodies) {
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
        Optional<ModelPrice> p = prices.price(provider, model);
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

    /** Builds a {@link MeterStage}. */
    public static final class Builder {
        private boolean recordBodies;
        private Integer stopAfterRateLimits;
        private boolean stopOnAuthFailure = true;
        private Integer stopAfterServerErrors;
        private PriceList prices = PriceList.NONE;

        private Builder() {}

        /**
         * Whether a run keeps its model calls' request and response bodies in its result dir
         * ({@code bodies/}), copied as they stream (never changing what is forwarded), each cut at
         * 4 MiB, secrets replaced; they give {@code trajectory.json} its messages when the adapter
         * reports none. Default false (bodies hold the code and prompts the agent saw).
         *
         * @param value whether to keep them
         * @return this builder
         */
        public Builder recordBodies(boolean value) {
            this.recordBodies = value;
            return this;
        }

        /**
         * How many rate-limited answers in a row (HTTP 429 on model requests, no success between)
         * stop a run, ended {@code rate-limited} with the retry time the endpoint sent; {@code 0}
         * never stops one. Unset (the default), each adapter's own {@code stopAfterRateLimits()}.
         *
         * @param value 0 or more
         * @return this builder
         * @throws IllegalArgumentException when {@code value} is negative
         */
        public Builder stopAfterRateLimits(int value) {
            if (value < 0) {
                throw new IllegalArgumentException("stopAfterRateLimits must be 0 (never stop a run) or more, was "
                        + value);
            }
            this.stopAfterRateLimits = value;
            return this;
        }

        /**
         * Whether the first HTTP 401 or 403 answer to a model request stops a run at once (its whole
         * process tree), ended {@code auth}: a refused key never heals, and CLIs retry it for minutes.
         * Another 4xx never stops a run. Default true.
         *
         * @param value whether to stop
         * @return this builder
         */
        public Builder stopOnAuthFailure(boolean value) {
            this.stopOnAuthFailure = value;
            return this;
        }

        /**
         * How many model requests in a row failing with HTTP 5xx or without an answer (the endpoint
         * unreachable, the stream reset, a timeout), no successful model answer between, stop a run,
         * ended {@code transient}; {@code 0} never stops one. Default 5.
         *
         * @param value 0 or more
         * @return this builder
         * @throws IllegalArgumentException when {@code value} is negative
         */
        public Builder stopAfterServerErrors(int value) {
            if (value < 0) {
                throw new IllegalArgumentException("stopAfterServerErrors must be 0 (never stop a run) or more, was "
                        + value);
            }
            this.stopAfterServerErrors = value;
            return this;
        }

        /**
         * Prices of models, for a cost from metered tokens (source {@code metered-price}); asked
         * before any resolver that is itself a {@link PriceList}. Default none: a model without a
         * price has no metered cost, never $0.
         *
         * @param value the prices
         * @return this builder
         */
        public Builder prices(PriceList value) {
            this.prices = Objects.requireNonNull(value, "prices");
            return this;
        }

        /** Returns the stage. */
        public MeterStage build() {
            return new MeterStage(this);
        }
    }
}
