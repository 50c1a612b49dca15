package dev.harness4j.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Outcome;
import dev.harness4j.core.queue.QueueEntry;
import dev.harness4j.core.queue.QueueProcessor;
import dev.harness4j.core.queue.RunQueue;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** harness-core's queue ({@link RunQueue}, {@link QueueProcessor}) on the {@link PgQueueStore} SPI. */
class PgQueueStoreTest {
    private final PgServer pg = PgServer.shared();
    @TempDir Path state;

    @Test
    void aQueueProcessorRunsEveryEntryOnceOnThePostgresStore() throws Exception {
        try (PgDatabase db = pg.database(pg.newDatabase())) {
            db.migrate();
            RunQueue queue = RunQueue.builder().stateDir(state).store(new PgQueueStore(db)).build();
            List<QueueEntry> added = queue.enqueue(PgTesting.specs("h", "p", 12));
            assertThat(queue.entries()).extracting(QueueEntry::id)
                    .containsExactlyElementsOf(added.stream().map(QueueEntry::id).toList());
            AtomicInteger runs = new AtomicInteger();
            try (QueueProcessor p = QueueProcessor.builder(queue, (runId, spec) -> {
                runs.incrementAndGet();
                return HarnessResult.builder(Outcome.COMPLETED, "m").build();
            }).concurrency(3).build()) {
                QueueProcessor.Summary s = p.runAll();
                assertThat(s.done()).isEqualTo(12);
            }
            assertThat(runs.get()).isEqualTo(12);
            assertThat(queue.entries()).allSatisfy(e -> {
                assertThat(e.state()).isEqualTo(QueueEntry.State.DONE);
                assertThat(e.attempts()).isEqualTo(1);
            });
            assertThat(queue.store().remove(added.get(0).id())).isTrue();
            assertThat(queue.entry(added.get(0).id())).isEmpty();
        }
    }

    @Test
    void concurrentClaimsOfTheSameEntriesThroughUpdateHaveOneWinnerEach() throws Exception {
        try (PgDatabase db = pg.database(pg.newDatabase())) {
            db.migrate();
            RunQueue queue = RunQueue.builder().stateDir(state).store(new PgQueueStore(db)).build();
            List<QueueEntry> added = queue.enqueue(PgTesting.specs("h", "p", 20));
            List<String> won = Collections.synchronizedList(new ArrayList<>());
            ExecutorService pool = Executors.newFixedThreadPool(6);
            try {
                List<Future<?>> fs = new ArrayList<>();
                for (int t = 0; t < 6; t++) {
                    fs.add(pool.submit(() -> {
                        for (QueueEntry e : added) {
                            Optional<QueueEntry> mine = queue.claim(e.id());
                            mine.ifPresent(m -> won.add(m.id()));
                        }
                        return null;
                    }));
                }
                for (Future<?> f : fs) {
                    f.get(5, TimeUnit.MINUTES);
                }
            } finally {
                pool.shutdownNow();
            }
            assertThat(won).hasSize(20).doesNotHaveDuplicates();
            assertThat(queue.store().get(added.get(3).id()).orElseThrow().owner().pid())
                    .isEqualTo(ProcessHandle.current().pid());
        }
    }
}
