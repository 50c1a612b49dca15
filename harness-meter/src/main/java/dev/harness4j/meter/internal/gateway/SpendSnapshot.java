package dev.harness4j.meter.internal.gateway;

import dev.harness4j.api.TokenUsage;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * One read of a key's spend logs, summed: tokens, spend, the models named and the row count.
 * Two snapshots agree when they hold the same rows with the same figures.
 *
 * @param rows the rows, one per request id (a row listed twice counts once)
 */
record SpendSnapshot(List<SpendRow> rows) {
    SpendSnapshot {
        Map<String, SpendRow> byId = new LinkedHashMap<>();
        for (SpendRow r : rows) {
            byId.putIfAbsent(r.requestId(), r);
        }
        rows = List.copyOf(byId.values());
    }

    static final SpendSnapshot EMPTY = new SpendSnapshot(List.of());

    int rowCount() {
        return rows.size();
    }

    boolean isEmpty() {
        return rows.isEmpty();
    }

    /**
     * The tokens with source {@code gateway}: input is the prompt tokens less the cache reads and
     * writes the row reports (the gateway counts prompt tokens OpenAI-style, cache included); a
     * figure no row reports is absent; unmeasured when there are no rows.
     */
    TokenUsage tokens() {
        if (rows.isEmpty()) {
            return TokenUsage.unmeasured();
        }
        Long input = null;
        Long output = null;
        Long cacheRead = null;
        Long cacheWrite = null;
        for (SpendRow r : rows) {
            if (r.promptTokens() != null) {
                long cached = (r.cacheRead() == null ? 0 : r.cacheRead()) + (r.cacheWrite() == null ? 0 : r.cacheWrite());
                input = plus(input, Math.max(0, r.promptTokens() - cached));
            }
            output = plus(output, r.completionTokens());
            cacheRead = plus(cacheRead, r.cacheRead());
            cacheWrite = plus(cacheWrite, r.cacheWrite());
        }
        if (input == null && output == null && cacheRead == null && cacheWrite == null) {
            return TokenUsage.unmeasured();
        }
        return new TokenUsage(input, output, cacheRead, cacheWrite, TokenUsage.Source.GATEWAY);
    }

    /** The spend summed over the rows that state one; null when none does. */
    BigDecimal spend() {
        BigDecimal sum = null;
        for (SpendRow r : rows) {
            if (r.spend() != null) {
                sum = sum == null ? r.spend() : sum.add(r.spend());
            }
        }
        return sum;
    }

    /** The models the rows name, in order of first appearance. */
    List<String> models() {
        LinkedHashSet<String> out = new LinkedHashSet<>();
        for (SpendRow r : rows) {
            if (r.model() != null && !r.model().isBlank()) {
                out.add(r.model());
            }
        }
        return new ArrayList<>(out);
    }

    /** Whether this and {@code other} hold the same rows (order aside) with the same figures. */
    boolean agreesWith(SpendSnapshot other) {
        return other != null && new java.util.HashSet<>(rows).equals(new java.util.HashSet<>(other.rows()));
    }

    private static Long plus(Long sum, Long value) {
        if (value == null) {
            return sum;
        }
        return sum == null ? value : sum + value;
    }
}
