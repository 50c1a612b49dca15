package dev.harness4j.meter.internal.gateway;

import java.math.BigDecimal;
import java.util.Objects;

/**
 * One row of a gateway's spend logs: one model call made with the run's key.
 *
 * @param requestId the gateway's id of the call (rows are counted by it)
 * @param model the model the row names (the deployment that answered), or {@code null}
 * @param promptTokens prompt tokens as the gateway counts them (cache reads and writes included),
 *     or {@code null}
 * @param completionTokens completion tokens, or {@code null}
 * @param cacheRead prompt tokens read from a cache, or {@code null} when the row does not say
 * @param cacheWrite prompt tokens written to a cache, or {@code null} when the row does not say
 * @param spend the USD the gateway charged, or {@code null}
 */
record SpendRow(String requestId, String model, Long promptTokens, Long completionTokens, Long cacheRead,
        Long cacheWrite, BigDecimal spend) {
    SpendRow {
        Objects.requireNonNull(requestId, "requestId");
    }
}
