package dev.harness4j.meter.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Reads a response body as it streams past, with bounded memory, into a {@link WireReading}.
 * Never throws: what it cannot read marks the reading malformed. Used by one forwarding thread.
 */
abstract class BodyReader {
    /** Longest SSE event or NDJSON line read; a longer one is skipped (and the reading marked malformed). */
    static final int MAX_EVENT_BYTES = 1024 * 1024;
    /** Longest non-streamed JSON body read; a longer one is passed on unread (usage unmeasured). */
    static final int MAX_JSON_BYTES = 8 * 1024 * 1024;

    final WireReading reading;
    final ObjectMapper json;

    BodyReader(WireReading reading, ObjectMapper json) {
        this.reading = reading;
        this.json = json;
    }

    abstract void feed(byte[] b, int off, int len);

    abstract void finish();

    /** The reader for a response's content type. */
    static BodyReader of(String contentType, WireReading reading, ObjectMapper json) {
        String ct = contentType == null ? "" : contentType.toLowerCase(Locale.ROOT);
        if (ct.startsWith("text/event-stream")) {
            return new Lines(reading, json, true);
        }
        if (ct.contains("ndjson") || ct.contains("jsonl")) {
            return new Lines(reading, json, false);
        }
        return new Whole(reading, json);
    }

    void parse(byte[] b, int off, int len) {
        try {
            JsonNode n = json.readTree(b, off, len);
            reading.document(n);
        } catch (IOException | RuntimeException e) {
            reading.malformed = true;
        }
    }

    /** A whole JSON document, buffered up to {@link #MAX_JSON_BYTES}. */
    static final class Whole extends BodyReader {
        private final ByteArrayOutputStream buf = new ByteArrayOutputStream();
        private boolean overflow;

        Whole(WireReading reading, ObjectMapper json) {
            super(reading, json);
        }

        @Override
        void feed(byte[] b, int off, int len) {
            if (overflow) {
                return;
            }
            if (buf.size() + len > MAX_JSON_BYTES) {
                overflow = true;
                buf.reset();
                return;
            }
            buf.write(b, off, len);
        }

        @Override
        void finish() {
            if (overflow) {
                reading.malformed = true;
                return;
            }
            byte[] all = buf.toByteArray();
            int start = 0;
            while (start < all.length && Character.isWhitespace(all[start])) {
                start++;
            }
            if (start == all.length) {
                return; // no body
            }
            if (all[start] != '{' && all[start] != '[') {
                reading.malformed = true;
                return;
            }
            parse(all, start, all.length - start);
        }
    }

    /**
     * Line by line: SSE ({@code data:} lines joined per event, dispatched at a blank line) or
     * NDJSON (each line a document). Lines end at LF, CRLF or CR.
     */
    static final class Lines extends BodyReader {
        private final boolean sse;
        private final ByteArrayOutputStream line = new ByteArrayOutputStream();
        private final ByteArrayOutputStream data = new ByteArrayOutputStream();
        private boolean lineTooLong;
        private boolean eventTooLong;
        private boolean hasData;
        private boolean lastWasCr;

        Lines(WireReading reading, ObjectMapper json, boolean sse) {
            super(reading, json);
            this.sse = sse;
        }

        @Override
        void feed(byte[] b, int off, int len) {
            int start = off;
            int end = off + len;
            for (int i = off; i < end; i++) {
                byte c = b[i];
                if (c == '\n' || c == '\r') {
                    if (c == '\n' && lastWasCr && i == start) { // the LF of a CRLF split across chunks
                        start = i + 1;
                        lastWasCr = false;
                        continue;
                    }
                    append(b, start, i - start);
                    endOfLine();
                    lastWasCr = false;
                    if (c == '\r') {
                        if (i + 1 >= end) {
                            lastWasCr = true; // a LF may start the next chunk
                        } else if (b[i + 1] == '\n') {
                            i++;
                        }
                    }
                    start = i + 1;
                } else {
                    lastWasCr = false;
                }
            }
            append(b, start, end - start);
        }

        private void append(byte[] b, int off, int len) {
            if (len <= 0 || lineTooLong) {
                return;
            }
            if (line.size() + len > MAX_EVENT_BYTES) {
                lineTooLong = true;
                line.reset();
                return;
            }
            line.write(b, off, len);
        }

        private void endOfLine() {
            if (lineTooLong) {
                reading.malformed = true;
                lineTooLong = false;
                eventTooLong = sse;
                line.reset();
                return;
            }
            byte[] l = line.toByteArray();
            line.reset();
            if (!sse) {
                if (l.length > 0 && !blank(l)) {
                    parse(l, 0, l.length);
                }
                return;
            }
            if (l.length == 0) {
                dispatch();
                return;
            }
            if (startsWith(l, "data:")) {
                int from = 5;
                if (from < l.length && l[from] == ' ') {
                    from++;
                }
                if (eventTooLong || data.size() + l.length > MAX_EVENT_BYTES) {
                    eventTooLong = true;
                    data.reset();
                    return;
                }
                if (hasData) {
                    data.write('\n');
                }
                data.write(l, from, l.length - from);
                hasData = true;
            }
            // event:, id:, retry: and comments need nothing: the JSON names its own type
        }

        private void dispatch() {
            if (eventTooLong) {
                reading.malformed = true;
            } else if (hasData) {
                byte[] d = data.toByteArray();
                String head = new String(d, 0, Math.min(d.length, 16), StandardCharsets.UTF_8).strip();
                if (!head.startsWith("[DONE]")) {
                    if (head.startsWith("{")) {
                        parse(d, 0, d.length);
                    } else {
                        reading.malformed = true;
                    }
                }
            }
            data.reset();
            hasData = false;
            eventTooLong = false;
        }

        @Override
        void finish() {
            if (line.size() > 0 || lineTooLong) {
                endOfLine();
            }
            if (sse && (hasData || eventTooLong)) {
                dispatch();
            }
        }

        private static boolean startsWith(byte[] l, String prefix) {
            if (l.length < prefix.length()) {
                return false;
            }
            for (int i = 0; i < prefix.length(); i++) {
                if (l[i] != prefix.charAt(i)) {
                    return false;
                }
            }
            return true;
        }

        private static boolean blank(byte[] l) {
            for (byte c : l) {
                if (!Character.isWhitespace(c)) {
                    return false;
                }
            }
            return true;
        }
    }
}
