package dev.harness4j.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExecutionTest {

    @Test
    void linesAreStrippedOfCrAndInvalidUtf8IsReplaced(@TempDir Path dir) throws IOException {
        Path out = dir.resolve("out");
        Files.write(out, new byte[] {'a', '\r', '\n', (byte) 0xff, 'b', '\n', 'c'});

        List<String> lines = new ArrayList<>();
        execution(dir, out).forEachStdoutLine(lines::add);

        assertThat(lines).containsExactly("a", "\uFFFDb", "c");
    }

    @Test
    void anOverLongLineIsCutAndTheNextLineStillArrives(@TempDir Path dir) throws IOException {
        Path out = dir.resolve("out");
        try (OutputStream os = Files.newOutputStream(out)) {
            byte[] chunk = "x".repeat(1 << 20).getBytes(StandardCharsets.US_ASCII);
            for (int i = 0; i < 6; i++) {
                os.write(chunk); // one 6 MiB line
            }
            os.write("\n{\"type\":\"result\"}\n".getBytes(StandardCharsets.US_ASCII));
        }

        List<Integer> lengths = new ArrayList<>();
        List<String> last = new ArrayList<>();
        execution(dir, out).forEachStdoutLine(l -> {
            lengths.add(l.length());
            last.add(l.length() < 100 ? l : "");
        });

        assertThat(lengths).containsExactly(Execution.MAX_LINE_CHARS, 17);
        assertThat(last.get(1)).isEqualTo("{\"type\":\"result\"}");
    }

    @Test
    void stdoutLinesPullTheSameLinesLazilyCutAtTheCap(@TempDir Path dir) throws IOException {
        Path out = dir.resolve("out");
        try (OutputStream os = Files.newOutputStream(out)) {
            os.write(new byte[] {'a', '\r', '\n', (byte) 0xff, 'b', '\n'});
            os.write("y".repeat(Execution.MAX_LINE_CHARS + 10).getBytes(StandardCharsets.US_ASCII));
            os.write("\nlast".getBytes(StandardCharsets.US_ASCII));
        }

        List<String> lines;
        try (var s = execution(dir, out).stdoutLines()) {
            lines = s.toList();
        }

        assertThat(lines).hasSize(4);
        assertThat(lines.subList(0, 2)).containsExactly("a", "\uFFFDb");
        assertThat(lines.get(2)).hasSize(Execution.MAX_LINE_CHARS);
        assertThat(lines.get(3)).isEqualTo("last");
        try (var s = execution(dir, dir.resolve("missing")).stdoutLines()) {
            assertThat(s).isEmpty();
        }
    }

    @Test
    void tailsReadOnlyTheEnd(@TempDir Path dir) throws IOException {
        Path out = dir.resolve("out");
        Files.writeString(out, "one\ntwo\nthree\n");

        Execution ex = execution(dir, out);

        assertThat(ex.stdoutTail(2)).containsExactly("two", "three");
        assertThat(ex.stderrTail(2)).isEmpty();
        assertThat(ex.stdoutTailText(6)).isEqualTo("three\n");
    }

    @Test
    void carriesWhenTheProcessEndedOrNullWhenNotKnown(@TempDir Path dir) {
        Execution unknown = execution(dir, dir.resolve("out"));
        Instant at = Instant.parse("2026-12-01T12:00:00Z");
        Execution known = new Execution(unknown.context(), unknown.invocation(), 0, Termination.exited(),
                unknown.stdout(), unknown.stderr(), unknown.changes(), unknown.duration(), at);

        assertThat(unknown.finishedAt()).isNull();
        assertThat(known.finishedAt()).isEqualTo(at);
    }

    private static Execution execution(Path dir, Path stdout) {
        ResolvedProvider p = new ResolvedProvider("p", EnumSet.of(ApiStyle.OPENAI), URI.create("http://127.0.0.1:1"),
                null, AuthScheme.BEARER, "m");
        HarnessContext ctx = HarnessContext.builder().prompt("x").provider(p).workspace(dir).scratchDir(dir)
                .executable("sh").build();
        Invocation inv = Invocation.builder("sh").workingDir(dir).build();
        return new Execution(ctx, inv, 0, Termination.exited(), stdout, dir.resolve("missing-stderr"),
                GitChanges.none("abc"), Duration.ofSeconds(1));
    }
}
