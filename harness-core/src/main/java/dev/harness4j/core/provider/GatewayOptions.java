package dev.harness4j.core.provider;

import dev.harness4j.core.internal.util.Checks;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Objects;

/**
 * How a runner does gateway accounting for providers with a {@link ProviderConfig.Gateway}: the
 * per-run key's lifetime, how long and how often the spend logs are read after a run, the
 * timeout of each admin request, and how far gateway and metered tokens may differ before the
 * run is flagged.
 *
 * <pre>{@code
 * HarnessRunner runner = HarnessRunner.builder()
 *         .providers(Providers.fromStateDir(stateDir))   // a provider with "gateway": {"type": "litellm", ...}
 *         .gateway(GatewayOptions.defaults().withSettleBudget(Duration.ofMinutes(1)))
 *         .build();
 * }</pre>
 *
 * @param settleBudget how long the spend logs are read after a run before the best snapshot seen
 *     is kept ({@link #DEFAULT_SETTLE_BUDGET})
 * @param pollInterval the pause between two reads of the spend logs; it must be longer than the
 *     gateway's flush interval, or two reads can agree on a partial total ({@link
 *     #DEFAULT_POLL_INTERVAL})
 * @param requestTimeout how long one admin request (mint, spend logs, revoke) may take ({@link
 *     #DEFAULT_REQUEST_TIMEOUT})
 * @param defaultKeyLifetime the per-run key's lifetime when the run has no max runtime (with one,
 *     the key lives twice the max runtime) ({@link #DEFAULT_KEY_LIFETIME})
 * @param tolerance the relative difference between gateway and metered input or output tokens
 *     above which {@code meta.json} flags a disagreement ({@link #DEFAULT_TOLERANCE})
 */
public record GatewayOptions(Duration settleBudget, Duration pollInterval, Duration requestTimeout,
        Duration defaultKeyLifetime, BigDecimal tolerance) {

    /** How long the spend logs are read after a run: 3 minutes. */
    public static final Duration DEFAULT_SETTLE_BUDGET = Duration.ofMinutes(3);

    /**
     * The pause between two reads of the spend logs: 15 s, longer than LiteLLM's default spend-log
     * flush interval (its {@code proxy_batch_write_at}, 10 s).
     */
    public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofSeconds(15);

    /** How long one admin request may take: 10 s. */
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(10);

    /** The per-run key's lifetime for a run without a max runtime: 6 hours. */
    public static final Duration DEFAULT_KEY_LIFETIME = Duration.ofHours(6);

    /** Gateway and metered tokens may differ by 2% before a disagreement is flagged. */
    public static final BigDecimal DEFAULT_TOLERANCE = new BigDecimal("0.02");

    public GatewayOptions {
        Checks.positive(settleBudget, "settleBudget");
        Checks.positive(pollInterval, "pollInterval");
        Checks.positive(requestTimeout, "requestTimeout");
        Checks.positive(defaultKeyLifetime, "defaultKeyLifetime");
        Objects.requireNonNull(tolerance, "tolerance");
        if (tolerance.signum() < 0) {
            throw new IllegalArgumentException("tolerance must not be negative, was " + tolerance);
        }
    }

    /** The defaults named above. */
    public static GatewayOptions defaults() {
        return new GatewayOptions(DEFAULT_SETTLE_BUDGET, DEFAULT_POLL_INTERVAL, DEFAULT_REQUEST_TIMEOUT,
                DEFAULT_KEY_LIFETIME, DEFAULT_TOLERANCE);
    }

    public GatewayOptions withSettleBudget(Duration value) {
        return new GatewayOptions(value, pollInterval, requestTimeout, defaultKeyLifetime, tolerance);
    }

    public GatewayOptions withPollInterval(Duration value) {
        return new GatewayOptions(settleBudget, value, requestTimeout, defaultKeyLifetime, tolerance);
    }

    public GatewayOptions withRequestTimeout(Duration value) {
        return new GatewayOptions(settleBudget, pollInterval, value, defaultKeyLifetime, tolerance);
    }

    public GatewayOptions withDefaultKeyLifetime(Duration value) {
        return new GatewayOptions(settleBudget, pollInterval, requestTimeout, value, tolerance);
    }

    public GatewayOptions withTolerance(BigDecimal value) {
        return new GatewayOptions(settleBudget, pollInterval, requestTimeout, defaultKeyLifetime, value);
    }

    /** The per-run key's lifetime: twice the max runtime, or {@link #defaultKeyLifetime} without one. */
    public Duration keyLifetime(Duration maxRuntime) {
        return maxRuntime == null ? defaultKeyLifetime : maxRuntime.multipliedBy(2);
    }
}
