package dev.harness4j.core.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.harness4j.api.HarnessException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileQueueStoreTest {
    @TempDir Path dir;

    @Test
    void anEntryWithEveryFieldSetReadsBackEqual() {
        FileQueueStore store = new FileQueueStore(dir);
        Instant t = Instant.parse("2026-11-29T10:00:00.123456Z");
        QueueEntry e = new QueueEntry("q-1", QueueTesting.fullSpec(), QueueEntry.State.RUNNING, 2, t,
                new Owner(1234, 5678L, t, "box"), "r-1", t.plusSeconds(5), "transient", "retry 2/3", t.plusSeconds(1));
        store.add(e);

        assertThat(store.get("q-1")).contains(e);
        assertThat(store.list()).containsExactly(e);
        assertThat(dir.resolve("q-1.json")).exists();
    }

    @Test
    void removingAnEntryKeepsItsLockFileSoEveryLockerLocksTheSameInode() throws Exception {
        FileQueueStore store = new FileQueueStore(dir);
        QueueEntry e = QueueEntry.queued("q-1", QueueTesting.spec("aider", "p", "m"), Instant.now());
        store.add(e);
        Path lock = dir.resolve("locks").resolve("q-1.lock");
        Object inode = Files.readAttributes(lock, BasicFileAttributes.class).fileKey();
        // like a process blocked on the lock: it holds the inode open, so the inode cannot be reused
        try (FileChannel waiter = FileChannel.open(lock, StandardOpenOption.WRITE)) {
            assertThat(store.remove("q-1")).isTrue();
            store.add(e);

            assertThat(lock).exists();
            assertThat(Files.readAttributes(lock, BasicFileAttributes.class).fileKey())
                    .as("the lock file the waiter holds is the one the next locker uses").isEqualTo(inode);
        }
    }

    @Test
    void writesLeaveOnlyTheDocumentAndItsLockFileBehind() throws Exception {
        FileQueueStore store = new FileQueueStore(dir);
        QueueEntry e = QueueEntry.queued("q-1", QueueTesting.fullSpec(), Instant.now());
        store.add(e);
        for (int i = 0; i < 5; i++) {
            store.update("q-1", cur -> cur.requeued(null, "transient", "again", Instant.now()));
        }

        try (var files = Files.list(dir)) {
            assertThat(files.map(f -> f.getFileName().toString()))
                    .containsExactlyInAnyOrder("q-1.json", "finished", "locks", "quarantine");
        }
        try (var files = Files.list(dir.resolve("locks"))) {
            assertThat(files.map(f -> f.getFileName().toString())).containsExactly("q-1.lock");
        }
        assertThat(Files.readString(dir.resolve("q-1.json"))).startsWith("{\n  \"").contains("\"id\" : \"q-1\"");
    }

    @Test
    void addingAnExistingIdFails() {
        FileQueueStore store = new FileQueueStore(dir);
        QueueEntry e = QueueEntry.queued("q-1", QueueTesting.spec("aider", "p", "m"), Instant.now());
        store.add(e);
        assertThatThrownBy(() -> store.add(e)).isInstanceOf(HarnessException.class).hasMessageContaining("already exists");
    }

    @Test
    void anUnreadableDocumentIsLeftOutOfTheListNotFatal() throws Exception {
        FileQueueStore store = new FileQueueStore(dir);
        store.add(QueueEntry.queued("q-good", QueueTesting.spec("aider", "p", "m"), Instant.now()));
        Files.writeString(dir.resolve("q-bad.json"), "{\"schema_version\":1, \"id\": ");
        Files.writeString(dir.resolve("q-partial.json"), "{\"schema_version\":1, \"id\": \"q-partial\"}");

        assertThat(store.list()).extracting(QueueEntry::id).containsExactly("q-good");
        assertThat(store.get("q-bad")).isEmpty();
    }

    @Test
    void concurrentUpdatesOfOneEntryNeverLoseAWrite() throws Exception {
        FileQueueStore store = new FileQueueStore(dir);
        FileQueueStore second = new FileQueueStore(dir); // a second instance in the same JVM
        store.add(QueueEntry.queued("q-1", QueueTesting.spec("aider", "p", "m"), Instant.now()));
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Future<?>> fs = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            FileQueueStore s = i % 2 == 0 ? store : second;
            fs.add(pool.submit(() -> {
                for (int k = 0; k < 25; k++) {
                    s.update("q-1", e -> new QueueEntry(e.id(), e.spec(), e.state(), e.attempts() + 1, e.enqueuedAt(),
                            e.owner(), e.runId(), e.notBefore(), e.lastOutcome(), e.reason(), Instant.now()));
                }
            }));
        }
        for (Future<?> f : fs) {
            f.get(60, TimeUnit.SECONDS);
        }
        pool.shutdown();
        assertThat(store.get("q-1").orElseThrow().attempts()).isEqualTo(200);
    }

    @Test
    void anUpdateThatReturnsNullWritesNothing() {
        FileQueueStore store = new FileQueueStore(dir);
        store.add(QueueEntry.queued("q-1", QueueTesting.spec("aider", "p", "m"), Instant.now()));
        assertThat(store.update("q-1", e -> null)).isEmpty();
        assertThat(store.update("q-missing", e -> e)).isEmpty();
        assertThat(store.remove("q-1")).isTrue();
        assertThat(store.list()).isEmpty();
    }

    @Test
    void finishedEntriesLeaveTheDirectoryThatIsPolled() throws Exception {
        FileQueueStore store = new FileQueueStore(dir);
        Instant t = Instant.now();
        store.add(QueueEntry.queued("q-done", QueueTesting.spec("aider", "p", "m"), t));
        store.add(QueueEntry.queued("q-open", QueueTesting.spec("aider", "p", "m"), t.plusMillis(1)));
        store.update("q-done", e -> e.ended(QueueEntry.State.DONE, "completed", null, Instant.now()));

        try (var files = Files.list(dir)) {
            assertThat(files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".json")))
                    .containsExactly("q-open.json");
        }
        assertThat(store.list()).extracting(QueueEntry::id).containsExactly("q-done", "q-open");
        assertThat(store.get("q-done").orElseThrow().state()).isEqualTo(QueueEntry.State.DONE);
    }

    @Test
    void aFileWhoseNameAndContentDisagreeIsMovedAsideOnce() throws Exception {
        FileQueueStore store = new FileQueueStore(dir);
        store.add(QueueEntry.queued("q-1", QueueTesting.spec("aider", "p", "m"), Instant.now()));
        Files.copy(dir.resolve("q-1.json"), dir.resolve("copy-of-entry.json"));

        assertThat(store.list()).extracting(QueueEntry::id).containsExactly("q-1");
        assertThat(dir.resolve("copy-of-entry.json")).doesNotExist();
        store.list();
        try (var aside = Files.list(dir.resolve("quarantine"))) {
            assertThat(aside.map(f -> f.getFileName().toString())).containsExactly("copy-of-entry.json");
        }
    }

    @Test
    void aListingSeesEveryWriteOfAnotherProcessAtOnceEvenOfTheSameSizeWithinOneClockTick() throws Exception {
        FileQueueStore lister = new FileQueueStore(dir);
        FileQueueStore writer = new FileQueueStore(dir); // as another process: its own parse cache
        Instant t = Instant.parse("2026-12-01T10:00:00Z"); // one instant: every version of the document has one size
        writer.add(QueueEntry.queued("q-1", QueueTesting.spec("aider", "p", "m"), t));
        Files.setLastModifiedTime(dir.resolve("q-1.json"), FileTime.from(Instant.now().minusSeconds(3600)));
        assertThat(lister.listActive()).extracting(QueueEntry::lastOutcome).containsOnlyNulls(); // parsed and kept

        for (int i = 0; i < 300; i++) {
            // two writes: the second file may get the first one's inode back, within the same tick
            String between = String.format("b-%03d", i);
            String outcome = String.format("o-%03d", i);
            writer.update("q-1", e -> e.requeued(null, between, "again", t));
            writer.update("q-1", e -> e.requeued(null, outcome, "again", t));

            assertThat(lister.listActive()).extracting(QueueEntry::lastOutcome).as("listing %d", i)
                    .containsExactly(outcome);
        }
    }
}
