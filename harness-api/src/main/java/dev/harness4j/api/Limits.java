package dev.harness4j.api;

import java.math.BigDecimal;
import java.time.Duration;

/**
 * Limits the guard enforces on one run; each is off when {@code null}. The budget limits ({@code
 * maxTokens}, {@code maxCostUsd}, {@code maxModelRequests}) are checked against what the
 * library's metering proxy read from the wire; the guard stops the run (outcome {@code budget})
 * as soon as a metered total passes one.
 *
 * @param inactivityTimeout stop the run when no new output line (one that differs from the
 *     previous line) and no model traffic arrived for this long; {@code null} = off
 * @param maxRuntime stop the run after this long in total; {@code null} = off
 * @param maxTurns passed to CLIs that can limit their agent turns; {@code null} = the CLI's own
 *     default
 * @param maxTokens stop the run when its metered tokens (input, output, cache reads and cache
 *     writes together) pass this; {@code null} = off
 * @param maxCostUsd stop the run when its metered cost (metered tokens times the model's
 *     configured prices) passes this many US dollars; {@code null} = off (without a price the
 *     cost is unmeasured and this limit cannot trip)
 * @param maxModelRequests stop the run when it has made more model requests than this; {@code
 *     null} = off
 */
public record Limits(Duration inactivityTimeout, Duration maxRuntime, Integer maxTurns, Long maxTokens,
        BigDecimal maxCostUsd, Integer maxModelRequests) {

    /** No limits at all: the run goes on until the harness exits or is bailed. */
    public static final Limits NONE = new Limits(null, null, null);

    /**
     * Checks the limits.
     *
     * @param inactivityTimeout positive, or {@code null} for off
     * @param maxRuntime positive, or {@code null} for off
     * @param maxTurns at least 1, or {@code null} for the CLI's default
     * @param maxTokens at least 1, or {@code null} for off
     * @param maxCostUsd positive, or {@code null} for off
     * @param maxModelRequests at least 1, or {@code null} for off
     * @throws IllegalArgumentException for a zero or negative limit
     */
    public Limits {
        requirePositive(inactivityTimeout, "inactivityTimeout");
        requirePositive(maxRuntime, "maxRuntime");
        if (maxTurns != null && maxTurns < 1) {
            throw new IllegalArgumentException("maxTurns must be >= 1, was " + maxTurns);
        }
        if (maxTokens != null && maxTokens < 1) {
            throw new IllegalArgumentException("maxTokens must be >= 1, was " + maxTokens);
        }
        if (maxCostUsd != null && maxCostUsd.signum() <= 0) {
            throw new IllegalArgumentException("maxCostUsd must be positive, was " + maxCostUsd);
        }
        if (maxModelRequests != null && maxModelRequests < 1) {
            throw new IllegalArgumentException("maxModelRequests must be >= 1, was " + maxModelRequests);
        }
    }

    /**
     * Time and turn limits only, no budget limit.
     *
     * @param inactivityTimeout positive, or {@code null} for off
     * @param maxRuntime positive, or {@code null} for off
     * @param maxTurns at least 1, or {@code null} for the CLI's default
     */
    public Limits(Duration inactivityTimeout, Duration maxRuntime, Integer maxTurns) {
        this(inactivityTimeout, maxRuntime, maxTurns, null, null, null);
    }

    /**
     * A copy with another inactivity timeout.
     *
     * @param value the timeout, or {@code null} for off
     * @return the copy
     */
    public Limits withInactivityTimeout(Duration value) {
        return new Limits(value, maxRuntime, maxTurns, maxTokens, maxCostUsd, maxModelRequests);
    }

    /**
     * A copy with another max runtime.
     *
     * @param value the runtime, or {@code null} for off
     * @return the copy
     */
    public Limits withMaxRuntime(Duration value) {
        return new Limits(inactivityTimeout, value, maxTurns, maxTokens, maxCostUsd, maxModelRequests);
    }

    /**
     * A copy with another max-turns limit.
     *
     * @param value the turns, or {@code null} for the CLI's default
     * @return the copy
     */
    public Limits withMaxTurns(Integer value) {
        return new Limits(inactivityTimeout, maxRuntime, value, maxTokens, maxCostUsd, maxModelRequests);
    }

    /**
     * A copy with another metered-token budget.
     *
     * @param value the tokens, or {@code null} for off
     * @return the copy
     */
    public Limits withMaxTokens(Long value) {
        return new Limits(inactivityTimeout, maxRuntime, maxTurns, value, maxCostUsd, maxModelRequests);
    }

    /**
     * A copy with another metered-cost budget.
     *
     * @param value US dollars, or {@code null} for off
     * @return the copy
     */
    public Limits withMaxCostUsd(BigDecimal value) {
        return new Limits(inactivityTimeout, maxRuntime, maxTurns, maxTokens, value, maxModelRequests);
    }

    /**
     * A copy with another model-request budget.
     *
     * @param value the requests, or {@code null} for off
     * @return the copy
     */
    public Limits withMaxModelRequests(Integer value) {
        return new Limits(inactivityTimeout, maxRuntime, maxTurns, maxTokens, maxCostUsd, value);
    }

    /**
     * Whether any budget limit (tokens, cost, model requests) is set.
     *
     * @return whether the guard has a budget to check
     */
    public boolean hasBudget() {
        return maxTokens != null || maxCostUsd != null || maxModelRequests != null;
    }

    private static void requirePositive(Duration d, String name) {
        if (d != null && (d.isNegative() || d.isZero())) {
            throw new IllegalArgumentException(name + " must be positive, was " + d);
        }
    }
}
