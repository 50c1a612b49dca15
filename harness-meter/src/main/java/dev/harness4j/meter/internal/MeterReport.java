package dev.harness4j.meter.internal;

import dev.harness4j.api.TokenUsage;
import java.util.List;

/**
 * What the wire showed of one run.
 *
 * @param requests every request through the meter
 * @param modelRequests those that asked for a model
 * @param measuredRequests model requests whose usage is known (read, or nothing billed)
 * @param tokens the sums; a figure absent when any model request lacked it; unmeasured without
 *     model requests
 * @param answered the answering models, in order of first appearance
 * @param answeredForRunModel the models that answered requests asking for the run's model (or
 *     naming none); a request the CLI itself made for another model (a background model of its
 *     own choosing) is no substitution by the endpoint
 * @param lastModel the last model request, or {@code null}
 * @param last the last request, or {@code null}
 * @param budgetPassed the budget limit the run passed, or {@code null}
 */
public record MeterReport(int requests, int modelRequests, int measuredRequests, TokenUsage tokens,
        List<String> answered, List<String> answeredForRunModel, RequestRecord lastModel, RequestRecord last, String budgetPassed) {}
