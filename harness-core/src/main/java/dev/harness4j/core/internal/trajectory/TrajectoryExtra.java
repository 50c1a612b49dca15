package dev.harness4j.core.internal.trajectory;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.TokenUsage;
import dev.harness4j.core.MeterSummary;
import dev.harness4j.core.RunRecord;
import java.util.Locale;

/**
 * harness4j's own facts about a run, written under the trajectory's root {@code extra.harness4j}:
 * which source the steps came from, the outcome and guard stop, the served-model verdict
 * (requested against answering models), login, where tokens and cost came from, and the metering
 * summary. Absent facts are left out.
 */
final class TrajectoryExtra {
    private TrajectoryExtra() {}

    static ObjectNode of(ObjectMapper json, RunRecord record, String source) {
        ObjectNode root = json.createObjectNode();
        ObjectNode h = root.putObject("harness4j");
        h.put("trajectory_source", source);
        h.put("run_id", record.runId());
        h.put("harness", record.spec().harness());
        h.put("provider", record.providerName());
        HarnessResult r = record.result();
        if (r != null) {
            h.put("outcome", r.outcome().wireName());
            if (r.reason() != null) {
                h.put("reason", r.reason());
            }
            ObjectNode served = h.putObject("served_model");
            served.put("requested", r.servedModel().requested());
            ArrayNode answered = served.putArray("answered");
            r.servedModel().answered().forEach(answered::add);
            served.put("verdict", r.servedModel().verdict().name().toLowerCase(Locale.ROOT));
            TokenUsage t = r.tokens();
            h.put("tokens_source", t.source() == null ? null : t.source().name().toLowerCase(Locale.ROOT));
            if (r.cost() != null) {
                ObjectNode cost = h.putObject("cost");
                cost.put("usd", r.cost().usd());
                cost.put("source", r.cost().source().name().toLowerCase(Locale.ROOT).replace('_', '-'));
            }
            if (r.phaseReport() != null) {
                h.put("phase_report", String.valueOf(r.phaseReport()));
            }
        }
        if (record.termination() != null) {
            ObjectNode stop = h.putObject("stop");
            stop.put("kind", record.termination().kind().name().toLowerCase(Locale.ROOT).replace('_', '-'));
            stop.put("reason", record.termination().reason());
        }
        if (record.login() != null) {
            h.put("login", String.valueOf(record.login().status()).toLowerCase(Locale.ROOT));
        }
        MeterSummary m = record.meter();
        if (m != null) {
            ObjectNode meter = h.putObject("meter");
            meter.put("requests", m.requests());
            meter.put("model_requests", m.modelRequests());
            meter.put("measured_requests", m.measuredRequests());
            ArrayNode answered = meter.putArray("answered");
            m.answered().forEach(answered::add);
            if (m.budgetPassed() != null) {
                meter.put("budget_passed", m.budgetPassed());
            }
        }
        return root;
    }
}
