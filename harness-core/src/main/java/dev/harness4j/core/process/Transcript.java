package dev.harness4j.core.process;

import dev.harness4j.core.internal.util.PrivateFiles;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The run's transcript file: both output streams interleaved by line. Thread-safe; a write
 * failure is logged once and later writes are dropped, so a full disk never stops draining.
 */
final class Transcript implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Transcript.class);
    private static final int BUFFER_BYTES = 64 * 1024;

    private final Path file;
    private OutputStream out;

    Transcript(Path file) throws IOException {
        this.file = file;
        this.out = new BufferedOutputStream(PrivateFiles.newOutputStream(file), BUFFER_BYTES);
    }

    /** Writes the end of a line (or a whole line) and a newline. */
    synchronized void line(byte[] bytes, int off, int len) {
        write(bytes, off, len, true);
    }

    /** Writes part of a line too long to buffer; the rest follows. */
    synchronized void piece(byte[] bytes, int off, int len) {
        write(bytes, off, len, false);
    }

    /** Writes a note from the library itself, e.g. why the run was stopped. */
    synchronized void note(String text) {
        byte[] b = ("[harness4j] " + text).getBytes(StandardCharsets.UTF_8);
        write(b, 0, b.length, true);
    }

    private void write(byte[] bytes, int off, int len, boolean newline) {
        if (out == null) {
            return;
        }
        try {
            out.write(bytes, off, len);
            if (newline) {
                out.write('\n');
            }
        } catch (IOException e) {
            log.warn("could not write the transcript {}; dropping the rest of it: {}", file, e.toString());
            closeQuietly();
        }
    }

    @Override
    public synchronized void close() {
        if (out == null) {
            return;
        }
        try {
            out.close();
        } catch (IOException e) {
            log.warn("could not finish the transcript {}: {}", file, e.toString());
        }
        out = null;
    }

    private void closeQuietly() {
        try {
            out.close();
        } catch (IOException ignored) {
            // already failing; the first error was logged
        }
        out = null;
    }
}
