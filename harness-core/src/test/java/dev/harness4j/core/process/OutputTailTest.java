package dev.harness4j.core.process;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.HarnessEvent;
import dev.harness4j.api.Invocation;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Output lines as events and transcript: cleaned, bounded, redacted. */
class OutputTailTest {
    private static final String SECRET = "sk-ant-test-0123456789abcdef";

    @TempDir Path dir;
    private final ProcessSupervisor supervisor = ProcessSupervisor.builder().build();
    private final Runs.Lines lines = new Runs.Lines();

    @AfterEach
    void close() {
        supervisor.close();
    }

    private ProcessOutcome run(String script) throws InterruptedException {
        return supervisor.run(ProcessRequest.builder(Runs.newRunId(), Runs.sh(dir, script), dir)
                .secret(SECRET).listener(lines).build());
    }

    private String transcript() throws Exception {
        return Files.readString(dir.resolve("transcript.log"), StandardCharsets.UTF_8);
    }

    @Test
    void stripsCarriageReturnsAndFlushesThePartialLastLine() throws Exception {
        run("printf 'one\\r\\n50%%\\r100%%\\ntwo\\nno newline at the end'");

        assertThat(lines.texts()).containsExactly("one", "50%100%", "two", "no newline at the end");
        assertThat(transcript()).isEqualTo("one\n50%100%\ntwo\nno newline at the end\n");
        assertThat(Files.readString(dir.resolve("stdout.log"))).isEqualTo("one\r\n50%\r100%\ntwo\nno newline at the end");
    }

    @Test
    void replacesInvalidUtf8InsteadOfFailing() throws Exception {
        ProcessOutcome outcome = run("printf 'bad \\377\\376 bytes\\n\\303\\n\\342\\202\\254 ok\\n'");

        assertThat(outcome.exitCode()).isZero();
        assertThat(lines.texts()).containsExactly("bad \uFFFD\uFFFD bytes", "\uFFFD", "\u20AC ok");
        byte[] t = Files.readAllBytes(dir.resolve("transcript.log"));
        assertThat(StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(t)).toString())
                .isEqualTo("bad \uFFFD\uFFFD bytes\n\uFFFD\n\u20AC ok\n");
    }

    @Test
    void cutsVeryLongLinesInEventsButKeepsThemWholeInTheTranscript() throws Exception {
        // one 1 MiB line, one 3 MiB line (written to the transcript in pieces), then a short one
        run("head -c 1048576 /dev/zero | tr '\\0' 'a'; echo; "
                + "head -c 3145728 /dev/zero | tr '\\0' 'b'; echo; echo short");

        assertThat(lines.lines).hasSize(3);
        HarnessEvent.OutputLine first = lines.lines.get(0);
        assertThat(first.truncated()).isTrue();
        assertThat(first.text()).hasSize(ProcessSupervisor.EVENT_LINE_MAX_BYTES).matches("a+");
        assertThat(lines.lines.get(1).truncated()).isTrue();
        assertThat(lines.lines.get(1).text()).hasSize(ProcessSupervisor.EVENT_LINE_MAX_BYTES).matches("b+");
        assertThat(lines.lines.get(2).text()).isEqualTo("short");
        assertThat(lines.lines.get(2).truncated()).isFalse();
        List<String> t = Files.readAllLines(dir.resolve("transcript.log"));
        assertThat(t).hasSize(3);
        assertThat(t.get(0)).hasSize(1 << 20).matches("a+");
        assertThat(t.get(1)).hasSize(3 << 20).matches("b+");
    }

    @Test
    void cutsLongLinesAtACharacterBoundary() throws Exception {
        // 'é' is two bytes: an 8 KiB cut would split one
        run("printf 'x'; head -c 10000 /dev/zero | tr '\\0' 'e' | sed 's/e/\\xc3\\xa9/g'; echo");

        HarnessEvent.OutputLine line = lines.lines.get(0);
        assertThat(line.truncated()).isTrue();
        assertThat(line.text()).startsWith("x\u00e9").doesNotContain("\uFFFD");
        assertThat(line.text().getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(ProcessSupervisor.EVENT_LINE_MAX_BYTES);
    }

    @Test
    void neverWritesASecretToTheTranscriptOrEvents() throws Exception {
        run("echo \"key=" + SECRET + "\"; echo \"" + SECRET + SECRET + "\" >&2; printf '%s' '" + SECRET + "'");

        assertThat(lines.texts()).containsExactlyInAnyOrder("key=***", "******", "***");
        assertThat(transcript()).doesNotContain(SECRET).contains("key=***");
    }

    @Test
    void redactsASecretThatStraddlesTheCutOfAnOverLongLine() throws Exception {
        int before = ProcessSupervisor.LINE_BUFFER_MAX_BYTES - 10;
        run("head -c " + before + " /dev/zero | tr '\\0' 'a'; printf '%s' '" + SECRET + "'; "
                + "head -c 2000000 /dev/zero | tr '\\0' 'a'; printf '%s\\n' '" + SECRET + "'");

        String t = transcript();
        assertThat(t).doesNotContain(SECRET);
        assertThat(t.length()).isEqualTo(before + 3 + 2_000_000 + 3 + 1);
        assertThat(lines.texts().get(0)).doesNotContain(SECRET);
    }

    @Test
    void redactsTheInvocationsSecretEnvironmentValues() throws Exception {
        Invocation inv = Invocation.builder("sh", "-c", "echo \"using $API_KEY\"")
                .secretEnv("API_KEY", "env-secret-42").workingDir(dir).build();

        supervisor.run(ProcessRequest.builder(Runs.newRunId(), inv, dir).listener(lines).build());

        assertThat(lines.texts()).containsExactly("using ***");
        assertThat(transcript()).isEqualTo("using ***\n");
    }

    @Test
    void marksALineIdenticalToThePreviousOneAsNoActivity() throws Exception {
        run("echo a; echo a; echo b; echo a; echo a");

        assertThat(lines.lines).extracting(HarnessEvent.OutputLine::activity)
                .containsExactly(true, false, true, true, false);
    }

    @Test
    void aListenerThatThrowsDoesNotStopTheRun() throws Exception {
        ProcessOutcome outcome = supervisor.run(ProcessRequest.builder(Runs.newRunId(),
                Runs.sh(dir, "echo one; echo two"), dir).listener(e -> {
                    throw new IllegalStateException("listener bug");
                }).build());

        assertThat(outcome.exitCode()).isZero();
        assertThat(transcript()).isEqualTo("one\ntwo\n");
    }
}
