package dev.harness4j.meter.internal;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the request and response bodies of a run's model calls (the {@code recordBodies} opt-in):
 * each call's bodies are copied to disk as they stream through the meter, {@code
 * bodies/<n>.request} and {@code bodies/<n>.response} (n = 000001, 000002, ... in arrival
 * order), each cut at {@link #MAX_BODY_BYTES} with a {@linkplain #marker marker} appended, and
 * one line per finished call in {@code bodies/index.jsonl}. Never held in memory whole; a write
 * that fails stops that body's copy and never touches what the meter forwards. Secrets are taken
 * out when the result store copies the directory into the result (through the run's redactor).
 * At most {@link MeterRun#MAX_RECORDS} calls are kept. Thread-safe.
 */
public final class BodyRecorder implements AutoCloseable {
    /** Bytes of one body kept: 4 MiB; the rest is counted and replaced by a marker. */
    public static final long MAX_BODY_BYTES = 4L * 1024 * 1024;
    /** The index of recorded calls, one JSON line each, in the bodies directory. */
    public static final String INDEX = "index.jsonl";
    /** The text appended to a body cut at the cap (it starts on a new line). */
    static final String MARKER_PREFIX = "\n[harness4j: body truncated at ";

    private static final Logger log = LoggerFactory.getLogger(BodyRecorder.class);

    private final Path dir;
    private final long cap;
    private final ObjectMapper json;
    private final BufferedWriter index;
    private int opened; // guarded by this
    private boolean closed; // guarded by this

    BodyRecorder(Path dir, long cap, ObjectMapper json) throws IOException {
        this.dir = dir;
        this.cap = cap;
        this.json = json;
        Files.createDirectories(dir);
        this.index = Files.newBufferedWriter(dir.resolve(INDEX), StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
    }

    /** The marker appended to a body of {@code total} bytes cut at {@code kept}. */
    static String marker(long kept, long total) {
        return MARKER_PREFIX + kept + " of " + total + " bytes]\n";
    }

    /** Starts recording one model call; {@code null} when the run's quota of recorded calls is used up or closed. */
    synchronized Exchange open() {
        if (closed || opened >= MeterRun.MAX_RECORDS) {
            return null;
        }
        opened++;
        String name = String.format(Locale.ROOT, "%06d", opened);
        return new Exchange(name, new Sink(dir.resolve(name + ".request")), new Sink(dir.resolve(name + ".response")));
    }

    /** A call ended: closes its bodies and writes its index line. */
    synchronized void ended(Exchange e, RequestRecord r, String contentType, String contentEncoding) {
        e.request.close();
        e.response.close();
        if (closed) {
            return;
        }
        try {
            ObjectNode n = json.createObjectNode();
            n.put("n", e.name);
            n.put("at", r.at().toString());
            n.put("path", r.path());
            n.put("status", r.status());
            n.put("latency_ms", r.latencyMs());
            n.put("requested_model", r.requestedModel());
            n.put("answered_model", r.answeredModel());
            n.put("measured", r.measured());
            ObjectNode u = n.putObject("usage");
            putLong(u, "input", r.input());
            putLong(u, "output", r.output());
            putLong(u, "cache_read", r.cacheRead());
            putLong(u, "cache_write", r.cacheWrite());
            n.put("content_type", contentType);
            n.put("content_encoding", contentEncoding);
            n.put("request_bytes", e.request.total);
            n.put("response_bytes", e.response.total);
            n.put("request_truncated", e.request.total > cap);
            n.put("response_truncated", e.response.total > cap);
            n.put("upstream_error", r.upstreamError());
            index.write(json.writeValueAsString(n));
            index.write('\n');
            index.flush();
        } catch (IOException ex) {
            log.debug("could not write {}: {}", dir.resolve(INDEX), ex.toString());
        }
    }

    private static void putLong(ObjectNode n, String k, Long v) {
        if (v == null) {
            n.putNull(k);
        } else {
            n.put(k, v);
        }
    }

    /** Closes the index; calls still in flight keep their bodies but get no index line. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            index.close();
        } catch (IOException e) {
            log.debug("could not close {}: {}", dir.resolve(INDEX), e.toString());
        }
    }

    /** One model call's two bodies. */
    final class Exchange {
        final String name;
        final Sink request;
        final Sink response;

        Exchange(String name, Sink request, Sink response) {
            this.name = name;
            this.request = request;
            this.response = response;
        }
    }

    /** One body on its way to disk: the first {@link #cap} bytes, then only counted. Never throws. */
    final class Sink {
        private final Path file;
        private OutputStream out; // null once failed or closed
        private boolean done;
        private long total;

        Sink(Path file) {
            this.file = file;
        }

        synchronized void write(byte[] b, int off, int len) {
            if (done || len <= 0) {
                return;
            }
            long room = cap - total;
            total += len;
            if (room <= 0) {
                return;
            }
            try {
                if (out == null) {
                    out = Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                            StandardOpenOption.WRITE);
                }
                out.write(b, off, (int) Math.min(room, len));
            } catch (IOException e) {
                log.debug("could not write {}: {}", file, e.toString());
                closeQuietly();
                done = true;
            }
        }

        synchronized void close() {
            if (done) {
                return;
            }
            done = true;
            try {
                if (out == null) {
                    out = Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                            StandardOpenOption.WRITE);
                }
                if (total > cap) {
                    out.write(marker(cap, total).getBytes(StandardCharsets.UTF_8));
                }
            } catch (IOException e) {
                log.debug("could not write {}: {}", file, e.toString());
            }
            closeQuietly();
        }

        private void closeQuietly() {
            if (out != null) {
                try {
                    out.close();
                } catch (IOException e) {
                    log.debug("could not close {}: {}", file, e.toString());
                }
                out = null;
            }
        }
    }
}
