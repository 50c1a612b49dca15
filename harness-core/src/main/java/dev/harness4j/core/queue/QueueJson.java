package dev.harness4j.core.queue;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.RunSpec;
import dev.harness4j.core.internal.util.Json;
import java.util.Objects;

/**
 * The JSON text of queue entries and run specs, for a {@link QueueStore} kept outside core (a
 * database column, say): the same documents {@link FileQueueStore} writes, as strings, so a
 * store needs no access to core's JSON mappers.
 *
 * <pre>{@code
 * String doc = QueueJson.spec(entry.spec());      // store it
 * RunSpec back = QueueJson.spec(doc);             // read it back
 * }</pre>
 */
public final class QueueJson {
    // configured once, never changed after: a constant, thread-safe
    private static final ObjectMapper MAPPER = Json.mapper();

    private QueueJson() {}

    /** The JSON text of a run spec. */
    public static String spec(RunSpec spec) {
        return write(RunSpecJson.toJson(Objects.requireNonNull(spec, "spec")));
    }

    /**
     * The run spec of a text written by {@link #spec(RunSpec)}.
     *
     * @throws IllegalArgumentException when the text is not such a document
     */
    public static RunSpec spec(String json) {
        return RunSpecJson.fromJson(read(json));
    }

    /** The JSON text of a queue entry (the document {@link FileQueueStore} writes). */
    public static String entry(QueueEntry entry) {
        return write(QueueEntryJson.toJson(Objects.requireNonNull(entry, "entry")));
    }

    /**
     * The queue entry of a text written by {@link #entry(QueueEntry)}.
     *
     * @throws IllegalArgumentException when the text is not such a document
     */
    public static QueueEntry entry(String json) {
        return QueueEntryJson.fromJson(read(json));
    }

    private static String write(Object node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write a queue document: " + e.getMessage(), e);
        }
    }

    private static com.fasterxml.jackson.databind.JsonNode read(String json) {
        try {
            return MAPPER.readTree(Objects.requireNonNull(json, "json"));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not a JSON document: " + e.getOriginalMessage(), e);
        }
    }
}
