package dev.harness4j.postgres.internal;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/** Capping artifacts: truncation with a marker, and gzip of the transcript under a compressed cap. */
public final class Artifacts {
    private Artifacts() {}

    /** The marker that ends a truncated artifact. */
    public static String marker(long storedBytes, long fullBytes, String worker, String fullPath) {
        return "\n[harness4j: truncated here; " + storedBytes + " of " + fullBytes + " bytes stored; the full file is on"
                + " worker " + worker + " at " + fullPath + "]\n";
    }

    /** {@code bytes} cut to at most {@code cap} bytes, the marker included. */
    public static byte[] truncate(byte[] bytes, long cap, String worker, String fullPath) {
        byte[] probe = marker(cap, bytes.length, worker, fullPath).getBytes(StandardCharsets.UTF_8);
        int keep = (int) Math.max(0, cap - probe.length);
        byte[] mark = marker(keep, bytes.length, worker, fullPath).getBytes(StandardCharsets.UTF_8);
        keep = (int) Math.max(0, Math.min(keep, cap - mark.length));
        byte[] out = Arrays.copyOf(bytes, keep + mark.length);
        System.arraycopy(mark, 0, out, keep, mark.length);
        return out;
    }

    /** The bytes of a gzip stream (a stored transcript). */
    public static byte[] gunzip(byte[] gz) throws IOException {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gz))) {
            return in.readAllBytes();
        }
    }

    public static byte[] gzip(byte[] bytes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, bytes.length / 4));
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /**
     * The gzip of {@code bytes}, or of a prefix of them ending with the marker when the whole
     * compresses to more than {@code cap}.
     *
     * @return the compressed bytes and whether the text was truncated
     */
    public static Gz gzipCapped(byte[] bytes, long cap, String worker, String fullPath) {
        byte[] gz = gzip(bytes);
        if (gz.length <= cap) {
            return new Gz(gz, false);
        }
        long rawCap = Math.max(256, (long) ((double) bytes.length * cap / gz.length * 0.9));
        for (int i = 0; i < 8; i++) {
            byte[] t = gzip(truncate(bytes, Math.min(rawCap, bytes.length), worker, fullPath));
            if (t.length <= cap) {
                return new Gz(t, true);
            }
            rawCap = Math.max(256, rawCap / 2);
        }
        return new Gz(gzip(truncate(bytes, 256, worker, fullPath)), true);
    }

    /** A compressed artifact. */
    public record Gz(byte[] bytes, boolean truncated) {}
}
