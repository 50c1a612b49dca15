package dev.harness4j.core.stages;

import dev.harness4j.core.pipeline.RunStage;
import dev.harness4j.core.provider.GatewayOptions;
import dev.harness4j.core.provider.PriceList;
import java.util.Objects;

/**
 * The working implementations behind {@link MeterStage} and {@link GatewayStage}: implemented by
 * harness-meter ({@code dev.harness4j:harness-meter}) and found through {@link
 * java.util.ServiceLoader}; not for users. Without an implementation on the class path a run is
 * unmetered and its spend at a gateway is not settled, each said in the run's notes.
 */
public interface WireStages {
    /** How many failed model requests in a row stop a run when neither the stage nor the adapter says. */
    int DEFAULT_SERVER_ERRORS = 5;

    /**
     * Returns a stage that meters runs with the given settings; it serves every run of one runner
     * concurrently and is closed with the {@link MeterStage} that asked for it.
     *
     * @param settings the meter stage's settings
     * @return the working stage
     */
    RunStage meter(MeterSettings settings);

    /**
     * Returns a stage that accounts runs at their provider's gateway; it serves every run of one
     * runner concurrently and is closed with the {@link GatewayStage} that asked for it.
     *
     * @param options how spend is read and keys are minted
     * @return the working stage
     */
    RunStage gateway(GatewayOptions options);

    /**
     * A {@link MeterStage}'s settings as configured, unset ones {@code null}.
     *
     * @param recordBodies whether model call bodies are kept
     * @param stopAfterRateLimits the rate-limit stop, or {@code null} for the adapter's own
     * @param stopOnAuthFailure whether the first 401/403 stops a run
     * @param stopAfterServerErrors the failure stop, or {@code null} for the adapter's own (else
     *     {@link #DEFAULT_SERVER_ERRORS})
     * @param prices the price table
     */
    record MeterSettings(boolean recordBodies, Integer stopAfterRateLimits, boolean stopOnAuthFailure,
            Integer stopAfterServerErrors, PriceList prices) {
        /** Checks the prices are given. */
        public MeterSettings {
            Objects.requireNonNull(prices, "prices");
        }
    }
}
