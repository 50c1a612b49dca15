package dev.harness4j.meter.internal;

import java.io.ByteArrayOutputStream;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Reads a {@code gzip}- or {@code deflate}-encoded body: inflates it as it streams past (the CLI
 * still gets the encoded bytes, untouched) and hands the plain bytes to another reader. Bounded:
 * the inner reader bounds what it keeps, this one a 64 KiB gzip header at most. Anything it cannot
 * inflate marks the reading malformed. Used by one forwarding thread.
 */
final class Inflating extends BodyReader {
    private static final int MAX_HEADER = 64 * 1024;

    private final BodyReader inner;
    private final boolean gzip;
    private final Inflater inflater;
    private final ByteArrayOutputStream header = new ByteArrayOutputStream();
    private boolean inHeader;
    private boolean done;
    private final byte[] out = new byte[16 * 1024];

    private Inflating(BodyReader inner, boolean gzip) {
        super(inner.reading, inner.json);
        this.inner = inner;
        this.gzip = gzip;
        this.inflater = new Inflater(gzip);
        this.inHeader = gzip;
    }

    /** A reader for the encoding, or null when it is none this class inflates. */
    static BodyReader of(String encoding, BodyReader inner) {
        return switch (encoding) {
            case "gzip", "x-gzip" -> new Inflating(inner, true);
            case "deflate" -> new Inflating(inner, false);
            default -> null;
        };
    }

    @Override
    void feed(byte[] b, int off, int len) {
        if (done) {
            return;
        }
        if (inHeader) {
            header.write(b, off, len);
            byte[] h = header.toByteArray();
            int end = headerEnd(h);
            if (end == -1) {
                if (h.length > MAX_HEADER) {
                    fail();
                }
                return;
            }
            if (end == -2) {
                fail();
                return;
            }
            inHeader = false;
            header.reset();
            inflate(h, end, h.length - end);
            return;
        }
        inflate(b, off, len);
    }

    private void inflate(byte[] b, int off, int len) {
        if (len <= 0 || done) {
            return;
        }
        inflater.setInput(b, off, len);
        try {
            while (!inflater.finished()) {
                int n = inflater.inflate(out);
                if (n > 0) {
                    inner.feed(out, 0, n);
                } else if (inflater.needsInput() || inflater.needsDictionary()) {
                    break;
                }
            }
            if (inflater.finished()) {
                done = true; // the gzip trailer (and any further member) is not needed to read the body
            }
        } catch (DataFormatException e) {
            fail();
        }
    }

    /** The length of a complete gzip header at the start of {@code h}; -1 when incomplete, -2 when it is none. */
    static int headerEnd(byte[] h) {
        if (h.length < 10) {
            return h.length >= 2 && ((h[0] & 0xff) != 0x1f || (h[1] & 0xff) != 0x8b) ? -2 : -1;
        }
        if ((h[0] & 0xff) != 0x1f || (h[1] & 0xff) != 0x8b || h[2] != 8) {
            return -2;
        }
        int flags = h[3] & 0xff;
        int i = 10;
        if ((flags & 4) != 0) { // FEXTRA
            if (h.length < i + 2) {
                return -1;
            }
            i += 2 + ((h[i] & 0xff) | (h[i + 1] & 0xff) << 8);
        }
        for (int bit : new int[] {8, 16}) { // FNAME, FCOMMENT: zero-terminated
            if ((flags & bit) != 0) {
                while (i < h.length && h[i] != 0) {
                    i++;
                }
                if (i >= h.length) {
                    return -1;
                }
                i++;
            }
        }
        if ((flags & 2) != 0) { // FHCRC
            i += 2;
        }
        return i <= h.length ? i : -1;
    }

    private void fail() {
        reading.malformed = true;
        done = true;
    }

    @Override
    void finish() {
        inflater.end();
        if (inHeader && !done) {
            reading.malformed = true;
        }
        inner.finish();
    }
}
