package dev.harness4j.core.process;

import dev.harness4j.api.Secret;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Set;

/**
 * Replaces secret values by {@code ***} in raw output bytes, before they are decoded, written or
 * sent as events. Immutable and thread-safe.
 */
final class Redactor {
    private static final byte[] MASK = Secret.REDACTED.getBytes(StandardCharsets.UTF_8);

    private final byte[][] secrets;
    private final int longest;

    Redactor(Set<String> values) {
        this.secrets = values.stream()
                .filter(v -> v != null && !v.isEmpty())
                .map(v -> v.getBytes(StandardCharsets.UTF_8))
                .sorted(Comparator.comparingInt((byte[] b) -> b.length).reversed())
                .toArray(byte[][]::new);
        this.longest = Arrays.stream(secrets).mapToInt(b -> b.length).max().orElse(0);
    }

    /** The byte length of the longest secret (0 when there is none). */
    int longest() {
        return longest;
    }

    /**
     * Redacts {@code buf[0, len)}; returns the same array when nothing matched, else a new one.
     * The result's length is given by {@link Result#length()}.
     */
    Result redact(byte[] buf, int len) {
        if (secrets.length == 0 || len < secrets[secrets.length - 1].length) {
            return new Result(buf, len);
        }
        byte[] out = null;
        int outLen = 0;
        int copiedUpTo = 0;
        int i = 0;
        while (i < len) {
            byte[] hit = matchAt(buf, len, i);
            if (hit == null) {
                i++;
                continue;
            }
            if (out == null) {
                out = new byte[len + MASK.length * 4];
            }
            int chunk = i - copiedUpTo;
            out = ensure(out, outLen + chunk + MASK.length + (len - i));
            System.arraycopy(buf, copiedUpTo, out, outLen, chunk);
            outLen += chunk;
            System.arraycopy(MASK, 0, out, outLen, MASK.length);
            outLen += MASK.length;
            i += hit.length;
            copiedUpTo = i;
        }
        if (out == null) {
            return new Result(buf, len);
        }
        int rest = len - copiedUpTo;
        out = ensure(out, outLen + rest);
        System.arraycopy(buf, copiedUpTo, out, outLen, rest);
        return new Result(out, outLen + rest);
    }

    private byte[] matchAt(byte[] buf, int len, int at) {
        for (byte[] s : secrets) {
            if (at + s.length <= len && buf[at] == s[0] && Arrays.equals(buf, at, at + s.length, s, 0, s.length)) {
                return s;
            }
        }
        return null;
    }

    private static byte[] ensure(byte[] a, int size) {
        return a.length >= size ? a : Arrays.copyOf(a, Math.max(size, a.length * 2));
    }

    /** Redacted bytes: {@code bytes[0, length)}. */
    record Result(byte[] bytes, int length) {}
}
