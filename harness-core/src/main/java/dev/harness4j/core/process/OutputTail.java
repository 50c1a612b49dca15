package dev.harness4j.core.process;

import dev.harness4j.api.HarnessEvent;
import dev.harness4j.api.HarnessListener;
import dev.harness4j.core.internal.capture.Redactor;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drains one output stream of a run: copies the raw bytes to a file, splits them into lines
 * ({@code \r} stripped, invalid UTF-8 replaced, secrets redacted), appends each line to the
 * transcript and sends it to the listener as an {@link HarnessEvent.OutputLine}, and reports
 * activity (a line that differs from the previous one on this stream) to the guard.
 *
 * <p>Memory stays bounded whatever the output: a line longer than {@link
 * #LINE_BUFFER_MAX_BYTES} is written to the transcript in pieces (whole, but the other stream's
 * lines may land between its pieces), and its event carries only the first {@link
 * #EVENT_LINE_MAX_BYTES}.
 */
final class OutputTail implements Runnable {
    private static final Logger log = LoggerFactory.getLogger(OutputTail.class);

    static final int EVENT_LINE_MAX_BYTES = ProcessSupervisor.EVENT_LINE_MAX_BYTES;
    static final int LINE_BUFFER_MAX_BYTES = ProcessSupervisor.LINE_BUFFER_MAX_BYTES;

    /** The longest line handed to a line consumer whole, in bytes (64 MiB); the rest of a longer one is dropped. */
    static final int LINE_MAX_BYTES = 64 * 1024 * 1024;

    private static final int READ_BYTES = 64 * 1024;
    private static final int INITIAL_LINE_BYTES = 8 * 1024;
    private static final int SHRINK_ABOVE_BYTES = 256 * 1024;

    private final String runId;
    private final HarnessEvent.Stream stream;
    private final InputStream in;
    private final OutputStream raw;
    private final Transcript transcript;
    private final Redactor redactor;
    private final HarnessListener listener;
    private final Runnable onActivity;
    private final java.util.function.Consumer<String> lines;
    private java.io.ByteArrayOutputStream whole;
    private final CountDownLatch done = new CountDownLatch(1);

    private byte[] buf = new byte[INITIAL_LINE_BYTES];
    private int len;
    private boolean pieces;
    private byte[] head;
    private long lineBytes;
    private final CRC32C crc = new CRC32C();
    private long prevLength = -1;
    private long prevCrc;
    private byte[] prevLine;
    private boolean listenerFailed;
    private volatile String firstLine;

    OutputTail(String runId, HarnessEvent.Stream stream, InputStream in, OutputStream raw, Transcript transcript,
            Redactor redactor, HarnessListener listener, Runnable onActivity) {
        this(runId, stream, in, raw, transcript, redactor, listener, onActivity, null);
    }

    /** A tail that also hands each whole line (at most {@link #LINE_MAX_BYTES}) to {@code lines}, or none when null. */
    OutputTail(String runId, HarnessEvent.Stream stream, InputStream in, OutputStream raw, Transcript transcript,
            Redactor redactor, HarnessListener listener, Runnable onActivity, java.util.function.Consumer<String> lines) {
        this.lines = lines;
        this.runId = runId;
        this.stream = stream;
        this.in = in;
        this.raw = raw;
        this.transcript = transcript;
        this.redactor = redactor;
        this.listener = listener;
        this.onActivity = onActivity;
    }

    @Override
    public void run() {
        byte[] chunk = new byte[READ_BYTES];
        boolean rawOk = true;
        try {
            int n;
            while ((n = in.read(chunk)) != -1) {
                if (rawOk) {
                    rawOk = writeRaw(chunk, n);
                }
                consume(chunk, n);
            }
        } catch (IOException e) {
            log.debug("run {}: {} closed: {}", runId, stream, e.toString());
        } catch (RuntimeException e) {
            log.error("run {}: draining {} failed; the rest of it is lost", runId, stream, e);
        } finally {
            if (len > 0 || pieces) {
                endLine();
            }
            try {
                raw.close();
            } catch (IOException e) {
                log.warn("run {}: could not finish the raw {} file: {}", runId, stream, e.toString());
            }
            done.countDown();
        }
    }

    /** Waits until the stream reached its end (or failed); false when {@code timeout} passed first. */
    boolean awaitDone(Duration timeout) throws InterruptedException {
        return done.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** The first line's event text, or null before any line. */
    String firstLine() {
        return firstLine;
    }

    private boolean writeRaw(byte[] chunk, int n) {
        try {
            raw.write(chunk, 0, n);
            return true;
        } catch (IOException e) {
            log.warn("run {}: could not write the raw {} file; dropping the rest of it: {}", runId, stream, e.toString());
            return false;
        }
    }

    private void consume(byte[] c, int n) {
        int i = 0;
        while (i < n) {
            int j = i;
            while (j < n && c[j] != '\n' && c[j] != '\r') {
                j++;
            }
            append(c, i, j - i);
            if (j < n && c[j] == '\n') {
                endLine();
            }
            i = j + 1;
        }
    }

    private void append(byte[] src, int off, int count) {
        while (count > 0) {
            int room = LINE_BUFFER_MAX_BYTES - len;
            if (room <= 0) {
                flushPiece();
                continue;
            }
            int take = Math.min(room, count);
            if (len + take > buf.length) {
                buf = Arrays.copyOf(buf, Math.min(LINE_BUFFER_MAX_BYTES, Math.max(len + take, buf.length * 2)));
            }
            System.arraycopy(src, off, buf, len, take);
            len += take;
            off += take;
            count -= take;
        }
    }

    /** Writes most of an over-long line; keeps a tail so a secret across the cut is still seen whole. */
    private void flushPiece() {
        Redactor.Bytes r = redactor.redact(buf, len);
        int keep = Math.min(Math.max(0, redactor.longest() - 1), r.length());
        int cut = boundary(r.bytes(), r.length() - keep);
        if (cut <= 0) {
            cut = r.length();
        }
        byte[] text = sanitize(r.bytes(), 0, cut);
        crc.update(text);
        lineBytes += text.length;
        if (!pieces) {
            head = Arrays.copyOf(text, boundary(text, Math.min(EVENT_LINE_MAX_BYTES, text.length)));
            pieces = true;
        }
        transcript.piece(text, 0, text.length);
        if (lines != null) {
            if (whole == null) {
                whole = new java.io.ByteArrayOutputStream();
            }
            if (whole.size() + text.length <= LINE_MAX_BYTES) {
                whole.write(text, 0, text.length);
            }
        }
        int rest = r.length() - cut;
        System.arraycopy(r.bytes(), cut, buf, 0, rest);
        len = rest;
    }

    private void endLine() {
        Redactor.Bytes r = redactor.redact(buf, len);
        byte[] text = sanitize(r.bytes(), 0, r.length());
        crc.update(text);
        lineBytes += text.length;
        transcript.line(text, 0, text.length);

        boolean activity;
        if (!pieces && text.length <= EVENT_LINE_MAX_BYTES) {
            activity = prevLine == null || !Arrays.equals(prevLine, text);
            prevLine = text;
            prevLength = -1;
        } else {
            long sig = crc.getValue();
            activity = prevLength != lineBytes || prevCrc != sig;
            prevLength = lineBytes;
            prevCrc = sig;
            prevLine = null;
        }
        if (activity) {
            onActivity.run();
        }
        String eventText;
        boolean truncated;
        if (pieces) {
            eventText = new String(head, StandardCharsets.UTF_8);
            truncated = true;
        } else if (text.length > EVENT_LINE_MAX_BYTES) {
            eventText = new String(text, 0, boundary(text, EVENT_LINE_MAX_BYTES), StandardCharsets.UTF_8);
            truncated = true;
        } else {
            eventText = new String(text, StandardCharsets.UTF_8);
            truncated = false;
        }
        if (firstLine == null) {
            firstLine = eventText;
        }
        if (lines != null) {
            deliver(text);
        }
        emit(new HarnessEvent.OutputLine(runId, Instant.now(), stream, eventText, truncated, activity));

        len = 0;
        pieces = false;
        head = null;
        lineBytes = 0;
        crc.reset();
        if (buf.length > SHRINK_ABOVE_BYTES) {
            buf = new byte[INITIAL_LINE_BYTES];
        }
    }

    private void deliver(byte[] text) {
        String line;
        if (whole != null) {
            if (whole.size() + text.length <= LINE_MAX_BYTES) {
                whole.write(text, 0, text.length);
            }
            line = whole.toString(StandardCharsets.UTF_8);
            whole = null;
        } else {
            line = new String(text, StandardCharsets.UTF_8);
        }
        try {
            lines.accept(line);
        } catch (RuntimeException e) {
            log.warn("run {}: the conversation failed on a {} line; going on", runId, stream, e);
        }
    }

    private void emit(HarnessEvent event) {
        try {
            listener.onEvent(event);
        } catch (RuntimeException e) {
            if (!listenerFailed) {
                listenerFailed = true;
                log.warn("run {}: the listener threw on an output event; ignoring it (logged once per stream)", runId, e);
            }
        }
    }

    /** The bytes as valid UTF-8: invalid sequences become U+FFFD. */
    private static byte[] sanitize(byte[] b, int off, int n) {
        boolean ascii = true;
        for (int i = off; i < off + n; i++) {
            if (b[i] < 0) {
                ascii = false;
                break;
            }
        }
        if (ascii) {
            return Arrays.copyOfRange(b, off, off + n);
        }
        return new String(b, off, n, StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8);
    }

    /** {@code cut} moved back so it does not split a UTF-8 sequence. */
    private static int boundary(byte[] b, int cut) {
        int backed = 0;
        while (cut > 0 && cut < b.length && (b[cut] & 0xC0) == 0x80 && backed < 3) {
            cut--;
            backed++;
        }
        return cut;
    }
}
