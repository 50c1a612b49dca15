package dev.harness4j.core.internal.capture;

import dev.harness4j.api.Secret;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Replaces known secret values by {@code ***} in text, byte streams and raw output buffers
 * (the process supervisor's tail uses it too), before anything reaches disk or a listener. The longest secret wins where two overlap. Immutable and thread-safe.
 *
 * <pre>{@code
 * Redactor r = Redactor.of(Set.of("sk-live-123"));
 * r.redact("key=sk-live-123");   // "key=***"
 * }</pre>
 */
public final class Redactor {
    private static final byte[] MASK = Secret.REDACTED.getBytes(StandardCharsets.UTF_8);
    private static final int CHUNK = 64 * 1024;

    /** A redactor that knows no secrets. */
    public static final Redactor NONE = new Redactor(List.of());

    private final List<String> secrets;
    private final List<byte[]> secretBytes;
    private final int maxLen;

    private Redactor(Collection<String> values) {
        Set<String> distinct = new LinkedHashSet<>();
        for (String v : values) {
            if (v != null && !v.isEmpty()) {
                distinct.add(v);
            }
        }
        this.secrets = distinct.stream().sorted(Comparator.comparingInt(String::length).reversed()).toList();
        this.secretBytes = secrets.stream().map(s -> s.getBytes(StandardCharsets.UTF_8)).toList();
        this.maxLen = secretBytes.stream().mapToInt(b -> b.length).max().orElse(0);
    }

    /** A redactor for these values (empty and null values are ignored). */
    public static Redactor of(Collection<String> secretValues) {
        return new Redactor(Objects.requireNonNull(secretValues, "secretValues"));
    }

    /** Whether it knows no secret. */
    public boolean isEmpty() {
        return secrets.isEmpty();
    }

    /** The text with every secret value replaced by {@code ***}; {@code null} stays {@code null}. */
    public String redact(String text) {
        if (text == null || secrets.isEmpty()) {
            return text;
        }
        String out = text;
        for (String s : secrets) {
            if (out.contains(s)) {
                out = out.replace(s, Secret.REDACTED);
            }
        }
        return out;
    }

    /** Copies {@code in} to {@code out} replacing every secret's UTF-8 bytes, in bounded memory. */
    public void copy(InputStream in, OutputStream out) throws IOException {
        if (secrets.isEmpty()) {
            in.transferTo(out);
            return;
        }
        byte[] buf = new byte[CHUNK + maxLen];
        int len = 0;
        while (true) {
            int n = in.read(buf, len, buf.length - len);
            boolean eof = n < 0;
            if (!eof) {
                len += n;
                if (len < buf.length) {
                    continue;
                }
            }
            // bytes that may start a secret continuing past the buffer are kept for the next round
            int safe = eof ? len : len - (maxLen - 1);
            int i = 0;
            int emitted = 0;
            while (i < safe) {
                int m = matchAt(buf, i, len);
                if (m >= 0) {
                    out.write(buf, emitted, i - emitted);
                    out.write(MASK);
                    i += secretBytes.get(m).length;
                    emitted = i;
                } else {
                    i++;
                }
            }
            out.write(buf, emitted, Math.min(i, len) - emitted);
            int keep = len - Math.min(i, len);
            System.arraycopy(buf, len - keep, buf, 0, keep);
            len = keep;
            if (eof) {
                out.write(buf, 0, len);
                return;
            }
        }
    }

    /** The byte length of the longest secret (0 when there is none). */
    public int longest() {
        return maxLen;
    }

    /**
     * Redacts raw bytes {@code buf[0, len)} (output before it is decoded, written or sent as
     * events); returns the same array when nothing matched, else a new one.
     */
    public Bytes redact(byte[] buf, int len) {
        if (secretBytes.isEmpty() || len < secretBytes.get(secretBytes.size() - 1).length) {
            return new Bytes(buf, len);
        }
        byte[] out = null;
        int outLen = 0;
        int copiedUpTo = 0;
        int i = 0;
        while (i < len) {
            int m = matchAt(buf, i, len);
            if (m < 0) {
                i++;
                continue;
            }
            int chunk = i - copiedUpTo;
            out = ensure(out, outLen + chunk + MASK.length + (len - i));
            System.arraycopy(buf, copiedUpTo, out, outLen, chunk);
            outLen += chunk;
            System.arraycopy(MASK, 0, out, outLen, MASK.length);
            outLen += MASK.length;
            i += secretBytes.get(m).length;
            copiedUpTo = i;
        }
        if (out == null) {
            return new Bytes(buf, len);
        }
        int rest = len - copiedUpTo;
        out = ensure(out, outLen + rest);
        System.arraycopy(buf, copiedUpTo, out, outLen, rest);
        return new Bytes(out, outLen + rest);
    }

    private static byte[] ensure(byte[] a, int size) {
        if (a == null) {
            return new byte[size + MASK.length * 4];
        }
        return a.length >= size ? a : Arrays.copyOf(a, Math.max(size, a.length * 2));
    }

    /** Redacted bytes: {@code bytes[0, length)}. */
    public record Bytes(byte[] bytes, int length) {}

    private int matchAt(byte[] buf, int i, int len) {
        for (int k = 0; k < secretBytes.size(); k++) {
            byte[] s = secretBytes.get(k);
            if (i + s.length > len || buf[i] != s[0]) {
                continue;
            }
            boolean match = true;
            for (int j = 1; j < s.length; j++) {
                if (buf[i + j] != s[j]) {
                    match = false;
                    break;
                }
            }
            if (match) {
                return k;
            }
        }
        return -1;
    }
}
