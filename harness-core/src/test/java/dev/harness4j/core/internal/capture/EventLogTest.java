package dev.harness4j.core.internal.capture;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.harness4j.api.HarnessEvent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EventLogTest {
    @TempDir Path tmp;

    private static HarnessEvent line(int i) {
        return new HarnessEvent.OutputLine("run-e", Instant.now(), HarnessEvent.Stream.STDOUT, "line " + i, false, true);
    }

    private static HarnessEvent status(HarnessEvent.Status s) {
        return new HarnessEvent.StatusChanged("run-e", Instant.now(), s, null);
    }

    private static List<JsonNode> read(Path f) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (String l : Files.readAllLines(f)) {
            out.add(dev.harness4j.core.internal.util.Json.mapper().readTree(l));
        }
        return out;
    }

    @Test
    void outputEventsStopAtTheCapStatusEventsAlwaysGoOnAndOneTruncationRecordCountsTheRest() throws Exception {
        Path f = tmp.resolve("events.jsonl");
        List<HarnessEvent> downstream = new CopyOnWriteArrayList<>();
        try (EventLog log = new EventLog(f, Redactor.NONE, downstream::add, 5)) {
            log.onEvent(status(HarnessEvent.Status.RUNNING));
            for (int i = 0; i < 12; i++) {
                log.onEvent(line(i));
            }
            log.onEvent(status(HarnessEvent.Status.CAPTURING));
        }
        List<JsonNode> events = read(f);
        assertThat(events).filteredOn(n -> n.get("type").asText().equals("output")).hasSize(5)
                .extracting(n -> n.get("text").asText()).containsExactly("line 0", "line 1", "line 2", "line 3", "line 4");
        assertThat(events).filteredOn(n -> n.get("type").asText().equals("status")).hasSize(2);
        JsonNode last = events.get(events.size() - 1);
        assertThat(last.get("type").asText()).isEqualTo("output_truncated");
        assertThat(last.get("dropped_lines").asLong()).isEqualTo(7);
        assertThat(last.get("run_id").asText()).isEqualTo("run-e");
        assertThat(downstream).hasSize(14); // listeners still get every line
    }

    @Test
    void underTheCapThereIsNoTruncationRecordAndTheDefaultCapIsNamed() throws Exception {
        Path f = tmp.resolve("events.jsonl");
        try (EventLog log = new EventLog(f, Redactor.NONE, e -> { })) {
            for (int i = 0; i < 100; i++) {
                log.onEvent(line(i));
            }
        }
        assertThat(read(f)).hasSize(100).noneMatch(n -> n.get("type").asText().equals("output_truncated"));
        assertThat(EventLog.DEFAULT_MAX_OUTPUT_EVENTS).isEqualTo(10_000);
    }
}
