package dev.harness4j.postgres.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.harness4j.core.queue.Owner;
import java.time.Instant;

/** This module's JSON reading: decimals kept exactly as written, as harness-bench reads meta.json. */
public final class Jsons {
    // configured once, never changed after: a constant, thread-safe
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES).build();

    private Jsons() {}

    public static JsonNode read(String json) throws JsonProcessingException {
        return MAPPER.readTree(json);
    }

    /** A queue entry's owner as a JSON object (the fields of core's queue entry document), or null. */
    public static String owner(Owner o) {
        if (o == null) {
            return null;
        }
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        n.put("pid", o.pid());
        n.put("start_ticks", o.startTicks());
        n.put("started_at", o.startedAt() == null ? null : o.startedAt().toString());
        n.put("host", o.host());
        return n.toString();
    }

    /** The owner of {@link #owner(Owner)}'s text, or null. */
    public static Owner owner(String json) {
        if (json == null) {
            return null;
        }
        try {
            JsonNode n = MAPPER.readTree(json);
            return new Owner(n.path("pid").asLong(), n.hasNonNull("start_ticks") ? n.get("start_ticks").asLong() : null,
                    n.hasNonNull("started_at") ? Instant.parse(n.get("started_at").asText()) : null,
                    n.path("host").asText("unknown"));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not an owner document: " + e.getOriginalMessage(), e);
        }
    }
}
