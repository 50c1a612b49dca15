package dev.harness4j.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bail requests written by one side and acted on by the watch of the bench's process. */
class BailRequestsTest {
    @TempDir Path state;

    private static void await(String what, BooleanSupplier done) throws InterruptedException {
        Instant until = Instant.now().plusSeconds(30);
        while (!done.getAsBoolean()) {
            assertThat(Instant.now()).as("waited 30 s for " + what).isBefore(until);
            Thread.sleep(50);
        }
    }

    @Test
    void aRunRequestIsHandedToTheRunnerAndDeletedOnceItBailed() throws Exception {
        List<String> asked = new CopyOnWriteArrayList<>();
        AtomicInteger benchStops = new AtomicInteger();
        try (BailRequests watch = BailRequests.watch(state, "b", id -> asked.add(id) && asked.size() >= 2,
                benchStops::incrementAndGet)) {
            Path req = BailRequests.requestRun(state, "r-1");
            await("the runner's bail to say yes", () -> !Files.exists(req));
            assertThat(asked).as("asked again while the run was not bailable").containsOnly("r-1").hasSizeGreaterThanOrEqualTo(2);
            assertThat(benchStops).hasValue(0);
        }
    }

    @Test
    void aBenchRequestStopsOnlyThatBenchAndAnOldRequestIsDroppedUnread() throws Exception {
        Path old = BailRequests.requestBench(state, "b");
        Files.setLastModifiedTime(old, FileTime.from(Instant.now().minusSeconds(3600)));
        List<String> asked = new CopyOnWriteArrayList<>();
        AtomicInteger benchStops = new AtomicInteger();
        try (BailRequests watch = BailRequests.watch(state, "b", asked::add, benchStops::incrementAndGet)) {
            await("the old request's removal", () -> !Files.exists(old));
            assertThat(benchStops).as("a request from before this bench").hasValue(0);
            Path other = BailRequests.requestBench(state, "other");
            Path mine = BailRequests.requestBench(state, "b");
            await("the bench's request handled", () -> benchStops.get() == 1 && !Files.exists(mine));
            assertThat(other).as("another bench's request is left for it").exists();
        }
        assertThat(asked).isEmpty();
    }

    @Test
    void anIdThatCouldEscapeTheDirectoryIsRefused() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> BailRequests.requestRun(state, "../x"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("runId must match");
    }
}
