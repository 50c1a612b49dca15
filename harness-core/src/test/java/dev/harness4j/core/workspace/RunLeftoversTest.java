package dev.harness4j.core.workspace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunLeftoversTest {
    @TempDir Path tmp;

    @Test
    void removesTheRunsWorkspaceEventsAndHalfWrittenResultAndNothingElse() throws Exception {
        Path state = tmp.resolve("state");
        Path ws = Files.createDirectories(state.resolve("runs/r-1/ws/sub"));
        Files.writeString(ws.resolve("f.txt"), "x");
        Files.writeString(state.resolve("runs/r-1.events.jsonl"), "{}");
        Path other = Files.createDirectories(state.resolve("runs/r-10"));
        Files.writeString(state.resolve("runs/r-10.events.jsonl"), "{}");
        Path partial = Files.createDirectories(state.resolve("results/.tmp-r-1"));
        Files.writeString(partial.resolve("meta.json"), "{");
        Path complete = Files.createDirectories(state.resolve("results/t/h__p__m/r-1"));
        Files.writeString(complete.resolve("meta.json"), "{}");
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(outside.resolve("keep.txt"), "keep");
        Files.createSymbolicLink(ws.resolve("link"), outside);

        RunLeftovers.Swept s = RunLeftovers.sweep(state, "r-1", Duration.ofSeconds(1));

        assertThat(s.killed()).isZero();
        assertThat(s.removed()).hasSize(3);
        assertThat(state.resolve("runs/r-1")).doesNotExist();
        assertThat(state.resolve("runs/r-1.events.jsonl")).doesNotExist();
        assertThat(partial).doesNotExist();
        assertThat(other).isDirectory();
        assertThat(state.resolve("runs/r-10.events.jsonl")).isRegularFile();
        assertThat(complete.resolve("meta.json")).isRegularFile();
        assertThat(outside.resolve("keep.txt")).hasContent("keep");
        assertThat(RunLeftovers.remove(state, "r-1")).isEmpty();
    }

    @Test
    void aRunIdThatIsNotOnePathElementIsRefused() {
        Path state = tmp.resolve("state");
        assertThatThrownBy(() -> RunLeftovers.remove(state, "../x")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a run id");
        assertThatThrownBy(() -> RunLeftovers.remove(state, "..")).isInstanceOf(IllegalArgumentException.class);
        assertThat(RunLeftovers.remove(state, "r-2")).isEmpty(); // no state dir yet: nothing to do
    }
}
