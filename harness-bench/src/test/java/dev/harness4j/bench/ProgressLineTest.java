package dev.harness4j.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.HarnessEvent;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Outcome;
import dev.harness4j.core.queue.QueueEntry;
import dev.harness4j.core.queue.Owner;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class ProgressLineTest {
    private final Instant t0 = Instant.parse("2026-11-29T10:00:00Z");

    /** A clock the test moves by hand. */
    static final class Manual extends Clock {
        Instant now;

        Manual(Instant start) {
            now = start;
        }

        @Override public ZoneOffset getZone() { return ZoneOffset.UTC; }
        @Override public Clock withZone(java.time.ZoneId zone) { return this; }
        @Override public Instant instant() { return now; }
    }

    private QueueEntry running(String id, String harness, String runId) {
        QueueEntry q = QueueEntry.queued(id, dev.harness4j.api.RunSpec.builder(harness, "scripted").model("scripted-a")
                .prompt("p").baseline(Path.of("/tmp/r")).build(), t0);
        return q.claimed(Owner.current(), runId, t0);
    }

    @Test
    void countsDoneRunningAndPendingWithElapsedTimeAndTheAgeOfTheLastOutput() {
        Manual clock = new Manual(t0);
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        try (ProgressLine p = new ProgressLine(6, new PrintStream(buf, true, StandardCharsets.UTF_8), false, clock)) {
            QueueEntry a = running("q-a", "claude-code", "r-a");
            QueueEntry b = running("q-b", "aider", "r-b");
            p.started(a);
            p.started(b);
            clock.now = t0.plusSeconds(83);
            p.onEvent(new HarnessEvent.OutputLine("r-a", t0.plusSeconds(80), HarnessEvent.Stream.STDOUT, "x", false, true));
            assertThat(p.text()).isEqualTo("[bench] done 0/6 · running 2 · pending 4 · 01:23 elapsed · last output 3s ago"
                    + " · claude-code / scripted-a, aider / scripted-a");
            p.finished(a.ended(QueueEntry.State.DONE, "completed", null, clock.now),
                    HarnessResult.builder(Outcome.COMPLETED, "scripted-a").build());
            assertThat(p.text()).startsWith("[bench] done 1/6 · running 1 · pending 4 ·");
            p.finished(b.requeued(t0.plusSeconds(200), "transient", "retry", clock.now),
                    HarnessResult.builder(Outcome.TRANSIENT, "scripted-a").build());
            assertThat(p.text()).startsWith("[bench] done 1/6 · running 0 · pending 5 ·");
        }
        String printed = buf.toString(StandardCharsets.UTF_8);
        assertThat(printed).doesNotContain("\r").contains("started claude-code / scripted-a (attempt 1)")
                .contains("finished claude-code / scripted-a: completed")
                .contains("will retry aider / scripted-a: transient (not before 2026-11-29T10:03:20Z)");
        assertThat(printed.lines()).hasSize(4);
    }

    @Test
    void onATerminalTheLineIsRedrawnInPlace() {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        ProgressLine p = new ProgressLine(2, new PrintStream(buf, true, StandardCharsets.UTF_8), true, new Manual(t0));
        p.close();
        p.close();
        String printed = buf.toString(StandardCharsets.UTF_8);
        assertThat(printed).contains("\r\033[K[bench] done 0/2 · running 0 · pending 2 · 00:00 elapsed").endsWith("\n");
        assertThat(ProgressLine.clockText(Duration.ofSeconds(3725))).isEqualTo("1:02:05");
    }
}
