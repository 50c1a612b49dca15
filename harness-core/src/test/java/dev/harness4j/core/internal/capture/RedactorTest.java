package dev.harness4j.core.internal.capture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RedactorTest {

    @Test
    void replacesEverySecretInTextAndPrefersTheLongerOfOverlappingSecrets() {
        Redactor r = Redactor.of(List.of("abc", "abcdef", ""));
        assertThat(r.redact("x abcdef y abc z")).isEqualTo("x *** y *** z");
        assertThat(r.redact(null)).isNull();
        assertThat(Redactor.NONE.redact("abc")).isEqualTo("abc");
    }

    @Test
    void streamsBytesAndCatchesSecretsSplitAcrossReadChunks() throws Exception {
        String secret = "sk-live-0123456789";
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 20_000; i++) {
            sb.append("line ").append(i).append(' ').append(i % 997 == 0 ? secret : "plain").append('\n');
        }
        byte[] in = sb.toString().getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        // an input stream that returns odd-sized pieces, so secrets straddle the buffer boundaries
        InputStream trickle = new ByteArrayInputStream(in) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, 7919));
            }
        };
        Redactor.of(Set.of(secret)).copy(trickle, out);
        String text = out.toString(StandardCharsets.UTF_8);
        assertThat(text).doesNotContain(secret);
        assertThat(text).isEqualTo(sb.toString().replace(secret, "***"));
    }

    @Test
    void leavesBinaryBytesAloneAndHandlesASecretAtTheVeryEnd() throws Exception {
        byte[] head = {0, (byte) 0xff, (byte) 0xfe, 10, 0};
        byte[] tail = "TOPSECRET".getBytes(StandardCharsets.UTF_8);
        byte[] in = Arrays.copyOf(head, head.length + tail.length);
        System.arraycopy(tail, 0, in, head.length, tail.length);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Redactor.of(Set.of("TOPSECRET")).copy(new ByteArrayInputStream(in), out);
        byte[] expected = Arrays.copyOf(head, head.length + 3);
        System.arraycopy("***".getBytes(StandardCharsets.UTF_8), 0, expected, head.length, 3);
        assertThat(out.toByteArray()).isEqualTo(expected);
    }

    @Test
    void rawOutputBuffersAreRedactedLikeTextLongestSecretFirstAndUntouchedBuffersAreReturnedAsIs() {
        Redactor r = Redactor.of(java.util.Set.of("abc", "abcdef"));
        byte[] in = "x abcdef y abc z".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        Redactor.Bytes out = r.redact(in, in.length);
        assertThat(new String(out.bytes(), 0, out.length(), java.nio.charset.StandardCharsets.UTF_8))
                .isEqualTo("x *** y *** z").isEqualTo(r.redact("x abcdef y abc z"));
        byte[] clean = "nothing here".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        assertThat(r.redact(clean, clean.length).bytes()).isSameAs(clean);
        assertThat(r.longest()).isEqualTo(6);
        assertThat(Redactor.NONE.redact(in, 5).length()).isEqualTo(5);
    }
}
