package dev.harness4j.meter.internal.gateway;

import dev.harness4j.api.Cost;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.ServedModel;
import dev.harness4j.api.TokenUsage;
import dev.harness4j.meter.internal.MeterReport;
import dev.harness4j.meter.internal.ModelMatch;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * Puts what the gateway billed into a run's result. Pure functions.
 *
 * <ul>
 *   <li>Tokens: the gateway's (source {@code gateway}), the most trusted source; the meter's stay
 *       in {@code meta.json}'s {@code meter}, side by side.
 *   <li>Cost: the gateway's spend (source {@code gateway}) when its rows state one.
 *   <li>Served model: the models the rows name join the answering models; a row naming another
 *       model than the run's makes the verdict a mismatch.
 *   <li>Comparison: gateway and metered prompt tokens (input with cache reads and writes) and
 *       output tokens; a relative difference above the tolerance is flagged.
 * </ul>
 */
final class GatewayTruth {
    private GatewayTruth() {}

    record Applied(HarnessResult result, List<String> notes, Map<String, Object> comparison) {}

    static Applied apply(HarnessResult r, SpendSnapshot s, boolean settled, MeterReport wire, String model,
            BigDecimal tolerance) {
        List<String> notes = new ArrayList<>();
        TokenUsage tokens = s.tokens();
        HarnessResult out = r;
        if (tokens.isMeasured()) {
            out = out.withTokens(tokens);
        }
        BigDecimal spend = s.spend();
        if (spend != null) {
            out = out.withCost(new Cost(spend, Cost.Source.GATEWAY, settled ? null
                    : "the gateway's spend logs had not settled; the figure may be partial"));
        }
        out = withServed(out, s.models(), model);
        notes.add("gateway: " + s.rowCount() + " spend rows" + (settled ? " (two consecutive reads agreed)" : "")
                + "; tokens from the gateway");
        Map<String, Object> comparison = null;
        if (wire != null && wire.tokens().isMeasured() && tokens.isMeasured()) {
            comparison = compare(tokens, wire.tokens(), tolerance);
            if (Boolean.TRUE.equals(comparison.get("disagree"))) {
                notes.add("gateway and meter disagree beyond the tolerance of " + tolerance.movePointRight(2)
                        .stripTrailingZeros().toPlainString() + "%: " + comparison.get("detail"));
            }
        }
        return new Applied(out, notes, comparison);
    }

    private static HarnessResult withServed(HarnessResult r, List<String> gatewayModels, String model) {
        if (gatewayModels.isEmpty()) {
            return r;
        }
        ServedModel now = r.servedModel();
        LinkedHashSet<String> answered = new LinkedHashSet<>(now.answered());
        answered.addAll(gatewayModels);
        ServedModel.Verdict byGateway = ModelMatch.verdict(model, gatewayModels).verdict();
        ServedModel.Verdict v = now.verdict() == ServedModel.Verdict.MISMATCH || byGateway == ServedModel.Verdict.MISMATCH
                ? ServedModel.Verdict.MISMATCH : byGateway;
        ServedModel served = new ServedModel(now.requested(), new ArrayList<>(answered), v);
        return new HarnessResult(r.outcome(), r.reason(), r.tokens(), r.cost(), served, r.summary(), r.phaseReport(),
                r.retryAt(), r.sessionId());
    }

    /** Prompt (input + cache) and output, gateway beside meter, and whether they differ beyond the tolerance. */
    static Map<String, Object> compare(TokenUsage gateway, TokenUsage metered, BigDecimal tolerance) {
        Map<String, Object> c = new LinkedHashMap<>();
        List<String> off = new ArrayList<>();
        figure(c, off, "prompt", prompt(gateway), prompt(metered), tolerance);
        figure(c, off, "output", gateway.output(), metered.output(), tolerance);
        c.put("tolerance", tolerance);
        c.put("disagree", !off.isEmpty());
        if (!off.isEmpty()) {
            c.put("detail", String.join("; ", off));
        }
        return c;
    }

    private static void figure(Map<String, Object> c, List<String> off, String name, Long gateway, Long metered,
            BigDecimal tolerance) {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("gateway", gateway);
        f.put("metered", metered);
        c.put(name, f);
        if (gateway == null || metered == null) {
            return;
        }
        long larger = Math.max(gateway, metered);
        if (larger == 0) {
            return;
        }
        BigDecimal rel = BigDecimal.valueOf(Math.abs(gateway - metered)).divide(BigDecimal.valueOf(larger),
                MathContext.DECIMAL64);
        if (rel.compareTo(tolerance) > 0) {
            off.add(name + " tokens: gateway " + gateway + ", metered " + metered);
        }
    }

    /** Input with cache reads and writes: how gateways count prompt tokens. */
    private static Long prompt(TokenUsage t) {
        if (t.input() == null) {
            return null;
        }
        return t.input() + (t.cacheRead() == null ? 0 : t.cacheRead()) + (t.cacheWrite() == null ? 0 : t.cacheWrite());
    }

    /** The tokens as {@code meta.json} shows them. */
    static Map<String, Object> tokens(TokenUsage t) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("input", t.input());
        m.put("output", t.output());
        m.put("cache_read", t.cacheRead());
        m.put("cache_write", t.cacheWrite());
        m.put("source", t.source() == null ? null : "gateway");
        return m;
    }
}
