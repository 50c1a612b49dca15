package dev.harness4j.core.queue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;

/**
 * Converts a {@link QueueEntry} to and from its JSON document ({@code schema_version: 1},
 * snake_case keys, instants as ISO-8601 strings). Pure functions; used by every queue store.
 */
final class QueueEntryJson {
    /** The version written to {@code schema_version}. */
    public static final int SCHEMA_VERSION = 1;

    private QueueEntryJson() {}

    public static ObjectNode toJson(QueueEntry e) {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        n.put("schema_version", SCHEMA_VERSION);
        n.put("id", e.id());
        n.put("state", e.state().wireName());
        n.put("attempts", e.attempts());
        n.put("enqueued_at", e.enqueuedAt().toString());
        if (e.owner() == null) {
            n.putNull("owner");
        } else {
            ObjectNode o = n.putObject("owner");
            o.put("pid", e.owner().pid());
            o.put("start_ticks", e.owner().startTicks());
            o.put("started_at", e.owner().startedAt() == null ? null : e.owner().startedAt().toString());
            o.put("host", e.owner().host());
        }
        n.put("run_id", e.runId());
        n.put("not_before", e.notBefore() == null ? null : e.notBefore().toString());
        n.put("last_outcome", e.lastOutcome());
        n.put("reason", e.reason());
        n.put("updated_at", e.updatedAt().toString());
        n.set("spec", RunSpecJson.toJson(e.spec()));
        return n;
    }

    /**
     * Reads a document written by {@link #toJson}.
     *
     * @throws IllegalArgumentException naming the missing or malformed field
     */
    public static QueueEntry fromJson(JsonNode n) {
        int version = n.path("schema_version").asInt(-1);
        if (version != SCHEMA_VERSION) {
            throw new IllegalArgumentException("unsupported queue entry schema_version " + version
                    + " (this version reads " + SCHEMA_VERSION + ")");
        }
        JsonNode o = n.get("owner");
        Owner owner = o == null || o.isNull() ? null : new Owner(o.path("pid").asLong(),
                o.hasNonNull("start_ticks") ? o.get("start_ticks").asLong() : null,
                instant(o, "started_at"), RunSpecJson.required(o, "host"));
        return new QueueEntry(
                RunSpecJson.required(n, "id"),
                RunSpecJson.fromJson(n.path("spec")),
                QueueEntry.State.fromWireName(RunSpecJson.required(n, "state")),
                n.path("attempts").asInt(0),
                instant(n, "enqueued_at"),
                owner,
                RunSpecJson.text(n, "run_id"),
                instant(n, "not_before"),
                RunSpecJson.text(n, "last_outcome"),
                RunSpecJson.text(n, "reason"),
                instant(n, "updated_at"));
    }

    private static Instant instant(JsonNode n, String field) {
        String v = RunSpecJson.text(n, field);
        return v == null ? null : Instant.parse(v);
    }
}
