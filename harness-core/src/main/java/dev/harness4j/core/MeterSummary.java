package dev.harness4j.core;

import dev.harness4j.api.TokenUsage;
import java.util.List;
import java.util.Objects;

/**
 * What the runner's metering proxy saw of one run's model traffic; the request by request
 * account is {@code requests.jsonl} in the result directory.
 *
 * @param requests every request the harness sent through the meter
 * @param modelRequests those that asked for a model
 * @param measuredRequests model requests whose usage is known (read from the wire, or nothing
 *     billed because the endpoint refused them)
 * @param tokens the sums over the model requests, source {@code metered}; a figure is {@code null}
 *     when any model request lacked it; unmeasured without model requests
 * @param answered the models the responses named, in order of first appearance
 * @param budgetPassed the budget limit the run passed, or {@code null}
 */
public record MeterSummary(int requests, int modelRequests, int measuredRequests, TokenUsage tokens,
        List<String> answered, String budgetPassed) {

    /**
     * Checks the parts and copies the answered ids.
     *
     * @param requests every request through the meter
     * @param modelRequests those that asked for a model
     * @param measuredRequests model requests whose usage is known
     * @param tokens the metered sums
     * @param answered the answering models
     * @param budgetPassed the budget limit passed, or {@code null}
     */
    public MeterSummary {
        Objects.requireNonNull(tokens, "tokens");
        answered = List.copyOf(Objects.requireNonNull(answered, "answered"));
    }
}
