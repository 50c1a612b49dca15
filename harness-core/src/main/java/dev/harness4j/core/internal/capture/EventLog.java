package dev.harness4j.core.internal.capture;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.harness4j.api.HarnessEvent;
import dev.harness4j.api.HarnessListener;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A listener that appends each event of one run as a JSON line (secrets redacted) to a file and
 * passes it on to a downstream listener, whose exceptions are logged and ignored. Status events
 * are always written; output-line events up to a cap ({@link #DEFAULT_MAX_OUTPUT_EVENTS}), after
 * which they only go downstream and {@link #close()} appends one {@code output_truncated} record
 * with the number of lines left out (the transcript keeps every line). Thread-safe;
 * {@link #close()} is idempotent.
 */
public final class EventLog implements HarnessListener, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(EventLog.class);

    /** How many output-line events one run's file holds at most: 10,000. */
    public static final int DEFAULT_MAX_OUTPUT_EVENTS = 10_000;

    private final Path file;
    private final int maxOutputEvents;
    private int outputEvents;
    private long droppedOutputEvents;
    private String runId;
    private final HarnessListener downstream;
    private final BufferedWriter writer;
    private volatile Redactor redactor;
    private boolean closed;
    private IOException failure;

    public EventLog(Path file, Redactor redactor, HarnessListener downstream) throws IOException {
        this(file, redactor, downstream, DEFAULT_MAX_OUTPUT_EVENTS);
    }

    /** @param maxOutputEvents how many output-line events the file holds at most (&ge; 0) */
    public EventLog(Path file, Redactor redactor, HarnessListener downstream, int maxOutputEvents) throws IOException {
        if (maxOutputEvents < 0) {
            throw new IllegalArgumentException("maxOutputEvents must be >= 0, was " + maxOutputEvents);
        }
        this.maxOutputEvents = maxOutputEvents;
        this.file = Objects.requireNonNull(file, "file");
        this.redactor = Objects.requireNonNull(redactor, "redactor");
        this.downstream = Objects.requireNonNull(downstream, "downstream");
        dev.harness4j.core.internal.util.PrivateFiles.create(file);
        this.writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.TRUNCATE_EXISTING);
    }

    public Path file() {
        return file;
    }

    /** Redacts later events with this redactor (e.g. once the invocation's secrets are known). */
    public void redactWith(Redactor value) {
        this.redactor = Objects.requireNonNull(value, "redactor");
    }

    /** Appends an event to the file only, without passing it downstream. */
    public void record(HarnessEvent event) {
        write(event);
    }

    @Override
    public void onEvent(HarnessEvent event) {
        write(event);
        try {
            downstream.onEvent(event);
        } catch (RuntimeException e) {
            log.warn("a HarnessListener threw on {}; ignored", event.getClass().getSimpleName(), e);
        }
    }

    private void write(HarnessEvent event) {
        if (event instanceof HarnessEvent.OutputLine) {
            synchronized (this) {
                runId = event.runId();
                if (outputEvents >= maxOutputEvents) {
                    droppedOutputEvents++;
                    return;
                }
                outputEvents++;
            }
        }
        append(toJson(event));
    }

    private void append(String line) {
        synchronized (this) {
            if (!closed && failure == null) {
                try {
                    writer.write(line);
                    writer.write('\n');
                } catch (IOException e) {
                    failure = e;
                    log.warn("could not append to the event log {}; later events of this run are not recorded", file, e);
                }
            }
        }
    }

    private String toJson(HarnessEvent event) {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        n.put("run_id", event.runId());
        n.put("at", event.at().toString());
        if (event instanceof HarnessEvent.OutputLine o) {
            n.put("type", "output");
            n.put("stream", o.stream().name().toLowerCase(java.util.Locale.ROOT));
            n.put("text", redactor.redact(o.text()));
            n.put("truncated", o.truncated());
            n.put("activity", o.activity());
        } else if (event instanceof HarnessEvent.StatusChanged s) {
            n.put("type", "status");
            n.put("status", s.status().name().toLowerCase(java.util.Locale.ROOT));
            n.put("detail", redactor.redact(s.detail()));
        }
        return n.toString();
    }

    /** Flushes and closes the file; events after this are only passed downstream. */
    @Override
    public synchronized void close() throws IOException {
        if (closed) {
            return;
        }
        if (droppedOutputEvents > 0) {
            ObjectNode n = JsonNodeFactory.instance.objectNode();
            n.put("run_id", runId);
            n.put("at", java.time.Instant.now().toString());
            n.put("type", "output_truncated");
            n.put("dropped_lines", droppedOutputEvents);
            n.put("max_output_events", maxOutputEvents);
            n.put("detail", "only the first " + maxOutputEvents + " output lines are events; the transcript has every line");
            append(n.toString());
        }
        closed = true;
        writer.close();
        if (failure != null) {
            throw failure;
        }
    }
}
