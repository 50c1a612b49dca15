package dev.harness4j.core.stages;

import dev.harness4j.core.pipeline.RunChain;
import dev.harness4j.core.pipeline.RunOutcome;
import dev.harness4j.core.pipeline.RunStage;
import dev.harness4j.core.pipeline.Slot;
import dev.harness4j.core.provider.PriceList;
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
 * <p>This class holds the settings; the meter itself is in harness-meter ({@code
 * dev.harness4j:harness-meter}), found through {@link java.util.ServiceLoader} ({@link WireStages}).
 * Without it a run is unmetered and says so: a warning once per JVM, and a note on each run whose
 * provider has an endpoint (tokens and cost stay the adapter's, never 0).
 *
 * <pre>{@code
 * HarnessRunner.builder().stage(MeterStage.builder().recordBodies(true).stopAfterRateLimits(3).build())
 * }</pre>
 */
public final class MeterStage implements RunStage {
    private static final String CREDENTIAL = "credential";
    private static final String HELD_BY = "held_by";

    private final boolean recordBodies;
    private final Integer stopAfterRateLimits;
    private final boolean stopOnAuthFailure;
    private final Integer stopAfterServerErrors;
    private final PriceList prices;
    private RunStage delegate; // harness-meter's, made by the first run; guarded by this
    private boolean looked; // whether the first run looked for it; guarded by this
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
        return stopAfterServerErrors != null ? stopAfterServerErrors : WireStages.DEFAULT_SERVER_ERRORS;
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
        if (!chain.run().harness().needsProvider()) { // a reference harness (nop, oracle): no model, nothing to meter
            chain.outcome().section(CREDENTIAL, Map.of(HELD_BY, "none"));
            return chain.proceed();
        }
        if (chain.run().provider().usesCliLogin()) {
            chain.outcome().note("the wire was not metered: provider " + chain.run().provider().name() + " is the "
                    + "CLI's own login and has no endpoint to proxy; tokens, cost and served model are the adapter's");
            chain.outcome().section(CREDENTIAL, Map.of(HELD_BY, "agent environment"));
            return chain.proceed();
        }
        RunStage working = delegate();
        if (working == null) {
            chain.outcome().note(WireLookup.UNMETERED);
            return chain.proceed();
        }
        return working.run(chain);
    }

    /** harness-meter's stage for these settings, looked for once; null (warned once) when it is missing. */
    private synchronized RunStage delegate() {
        if (closed) {
            throw new IllegalStateException("this HarnessRunner is closed");
        }
        if (!looked) {
            looked = true;
            delegate = WireLookup.find()
                    .map(w -> w.meter(new WireStages.MeterSettings(recordBodies, stopAfterRateLimits,
                            stopOnAuthFailure, stopAfterServerErrors, prices)))
                    .orElse(null);
            if (delegate == null) {
                WireLookup.warnMissing();
            }
        }
        return delegate;
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (delegate != null) {
            delegate.close();
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
