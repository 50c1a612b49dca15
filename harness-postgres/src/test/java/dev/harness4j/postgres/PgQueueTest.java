package dev.harness4j.postgres;

import static dev.harness4j.postgres.PgTesting.scalar;
import static dev.harness4j.postgres.PgTesting.specs;
import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Outcome;
import dev.harness4j.core.queue.RetryPolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class PgQueueTest {
    private static final Duration LONG = Duration.ofMinutes(5);
    private final PgServer pg = PgServer.shared();
    private PgDatabase db;
    private PgQueue queue;

    @BeforeEach
    void setUp() {
        db = pg.database(pg.newDatabase());
        db.migrate();
        queue = new PgQueue(db);
    }

    @AfterEach
    void tearDown() {
        db.close();
    }

    private static HarnessResult result(Outcome o) {
        return HarnessResult.builder(o, "m").reason(o == Outcome.COMPLETED ? null : "because").build();
    }

    @Test
    void eightConcurrentClaimersTakeEachOfTwoHundredEntriesExactlyOnce() throws Exception {
        queue.enqueue("b", specs("fake", "p", 200), RetryPolicy.DEFAULT);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<String> claimed = Collections.synchronizedList(new ArrayList<>());
        try {
            List<Future<?>> fs = new ArrayList<>();
            for (int w = 0; w < 8; w++) {
                String worker = "w" + w;
                fs.add(pool.submit(() -> {
                    Optional<PgLease> l;
                    while ((l = queue.claim(worker, LONG)).isPresent()) {
                        claimed.add(l.get().entryId());
                        assertThat(queue.finish(l.get(), result(Outcome.COMPLETED), RetryPolicy.DEFAULT, null))
                                .isEqualTo(PgQueue.Finish.RECORDED);
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
        assertThat(claimed).hasSize(200).doesNotHaveDuplicates();
        assertThat(queue.counts("b")).isEqualTo(new PgQueue.Counts(0, 0, 200, 0, 0));
        assertThat(scalar(db, "SELECT count(*) FROM h4j_attempt")).isEqualTo(200);
    }

    @Test
    void planningTheSameBenchTwiceQueuesEachRunOnce() {
        assertThat(queue.enqueue("b", specs("fake", "p", 5), RetryPolicy.DEFAULT)).hasSize(5);
        assertThat(queue.enqueue("b", specs("fake", "p", 6), RetryPolicy.DEFAULT)).hasSize(1);
        assertThat(queue.counts("b").queued()).isEqualTo(6);
    }

    @Test
    void anExpiredLeaseIsTakenOverWithTheAttemptCountedAndTheOldHolderWritesNothing() throws Exception {
        queue.enqueue("b", specs("fake", "p", 1), RetryPolicy.DEFAULT);
        PgLease first = queue.claim("dead", Duration.ofMillis(300)).orElseThrow();
        assertThat(queue.claim("other", LONG)).isEmpty();
        PgTesting.await("the lease to be reaped", Duration.ofSeconds(60), () -> !queue.reapExpired().isEmpty());
        PgLease second = queue.claim("other", LONG).orElseThrow();
        assertThat(second.entryId()).isEqualTo(first.entryId());
        assertThat(second.attempt()).isEqualTo(2);
        assertThat(queue.renew("dead", Set.of(first.runId()), LONG)).isEmpty();

        assertThat(queue.finish(first, result(Outcome.COMPLETED), RetryPolicy.DEFAULT, null))
                .isEqualTo(PgQueue.Finish.LEASE_LOST);
        assertThat(queue.counts("b").running()).isEqualTo(1);
        assertThat(queue.finish(second, result(Outcome.COMPLETED), RetryPolicy.DEFAULT, null))
                .isEqualTo(PgQueue.Finish.RECORDED);
        assertThat(queue.finish(second, result(Outcome.COMPLETED), RetryPolicy.DEFAULT, null))
                .isEqualTo(PgQueue.Finish.ALREADY_RECORDED);
        assertThat(queue.counts("b").done()).isEqualTo(1);
        assertThat(scalar(db, "SELECT count(*) FROM h4j_attempt WHERE outcome = 'lease-expired'")).isEqualTo(1);
    }

    @Test
    void anEntryWhoseLeasesExpireOnEveryAttemptFailsWhenNoneIsLeft() throws Exception {
        queue.enqueue("b", specs("fake", "p", 1), RetryPolicy.DEFAULT.withMaxAttempts(1));
        queue.claim("dead", Duration.ofMillis(200)).orElseThrow();
        PgTesting.await("the lease to be reaped", Duration.ofSeconds(60), () -> !queue.reapExpired().isEmpty());
        assertThat(queue.counts("b").failed()).isEqualTo(1);
        assertThat(queue.claim("other", LONG)).isEmpty();
    }

    @Test
    void aHarnessCapHoldsOverEveryWorkerAndFreesASlotWhenARunEnds() {
        queue.enqueue("b", specs("capped", "p", 6), RetryPolicy.DEFAULT);
        queue.enqueue("b", specs("free", "p", 2), RetryPolicy.DEFAULT);
        queue.cap(PgQueue.CapKind.HARNESS, "capped", 2);
        List<PgLease> got = new ArrayList<>();
        for (int w = 0; w < 6; w++) {
            queue.claim("w" + w, LONG).ifPresent(got::add);
        }
        assertThat(got).extracting(l -> l.spec().harness()).containsExactly("capped", "capped", "free", "free");
        assertThat(queue.claim("w9", LONG)).isEmpty();
        queue.finish(got.get(0), result(Outcome.COMPLETED), RetryPolicy.DEFAULT, null);
        assertThat(queue.claim("w9", LONG)).map(l -> l.spec().harness()).contains("capped");
        assertThat(queue.claim("w9", LONG)).isEmpty();
    }

    @Test
    void aCappedClaimWaitsOnlyForTheLockOfItsOwnCapThenCountsAgain() throws Exception {
        queue.enqueue("b", specs("a", "p", 1), RetryPolicy.DEFAULT); // the oldest entry
        queue.enqueue("b", specs("b", "p", 1), RetryPolicy.DEFAULT);
        queue.cap(PgQueue.CapKind.HARNESS, "a", 1);
        queue.cap(PgQueue.CapKind.HARNESS, "b", 1);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        ExecutorService pool2 = Executors.newSingleThreadExecutor(); // never blocks the test thread, which holds the lock
        try (var holder = db.connect()) {
            // another transaction holds harness a's cap lock, as a concurrent claim of it would
            holder.setAutoCommit(false);
            try (var p = holder.prepareStatement("SELECT pg_advisory_xact_lock(?)")) {
                p.setLong(1, ClaimTransaction.capLockKey(PgQueue.CapKind.HARNESS, "a"));
                p.executeQuery().close();
            }
            Future<Optional<PgLease>> waiting = pool.submit(() -> queue.claim("w1", LONG));
            PgTesting.await("the claim of harness a to wait for its cap's lock", Duration.ofMinutes(2),
                    () -> scalar(db, "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted") == 1);
            // a claim of another capped harness is not held up (it skips the waiting claim's locked row)
            Future<Optional<PgLease>> other = pool2.submit(() -> queue.claim("w2", LONG));
            assertThat(other.get(2, TimeUnit.MINUTES)).map(l -> l.spec().harness()).contains("b");
            assertThat(waiting.isDone()).isFalse();
            holder.rollback();
            assertThat(waiting.get(2, TimeUnit.MINUTES)).map(l -> l.spec().harness()).contains("a");
        } finally {
            pool.shutdownNow();
            pool2.shutdownNow();
        }
        // both caps are full now: counted again under the locks, nothing more is claimed
        assertThat(queue.claim("w3", LONG)).isEmpty();
        assertThat(scalar(db, "SELECT count(*) FROM h4j_queue WHERE state = 'running'")).isEqualTo(2);
    }

    @Test
    void aProviderCapHoldsToo() {
        queue.enqueue("b", specs("h", "slow-provider", 3), RetryPolicy.DEFAULT);
        queue.cap(PgQueue.CapKind.PROVIDER, "slow-provider", 1);
        assertThat(queue.claim("a", LONG)).isPresent();
        assertThat(queue.claim("b", LONG)).isEmpty();
        assertThat(queue.uncap(PgQueue.CapKind.PROVIDER, "slow-provider")).isTrue();
        assertThat(queue.claim("b", LONG)).isPresent();
    }

    @Test
    void aRateLimitSeenByOneWorkerPausesTheProviderForEveryWorker() {
        queue.enqueue("b", specs("h", "limited", 3), RetryPolicy.DEFAULT);
        queue.enqueue("b", specs("h", "other", 1), RetryPolicy.DEFAULT);
        PgLease l = queue.claim("a", LONG).orElseThrow();
        Instant reset = Instant.now().plus(Duration.ofHours(1));
        HarnessResult limited = HarnessResult.builder(Outcome.RATE_LIMITED, "m").reason("429").retryAt(reset).build();
        assertThat(queue.finish(l, limited, RetryPolicy.DEFAULT, null)).isEqualTo(PgQueue.Finish.RECORDED);
        assertThat(queue.pausedUntil("limited")).isPresent();
        // the next claim, by any worker, skips the paused provider
        assertThat(queue.claim("b", LONG)).map(x -> x.spec().provider()).contains("other");
        assertThat(queue.claim("c", LONG)).isEmpty();
        assertThat(scalar(db, "SELECT count(*) FROM h4j_queue WHERE provider = 'limited' AND state = 'queued'"
                + " AND attempts = 1 AND not_before > now() + interval '50 minutes'")).isEqualTo(1);
    }

    @Test
    void aTransientFailureIsQueuedAgainAfterTheBackoffAndAnErrorFails() {
        queue.enqueue("b", specs("h", "p", 2), RetryPolicy.DEFAULT);
        PgLease a = queue.claim("w", LONG).orElseThrow();
        PgLease b = queue.claim("w", LONG).orElseThrow();
        queue.finish(a, result(Outcome.TRANSIENT), RetryPolicy.DEFAULT, null);
        queue.finish(b, result(Outcome.ERROR), RetryPolicy.DEFAULT, null);
        assertThat(queue.counts("b")).isEqualTo(new PgQueue.Counts(1, 0, 0, 1, 0));
        assertThat(queue.claim("w", LONG)).isEmpty(); // backoff of 30 s
        PgTesting.update(db, "UPDATE h4j_queue SET not_before = now() - interval '1 second' WHERE state = 'queued'");
        assertThat(queue.claim("w", LONG)).map(PgLease::attempt).contains(2);
        assertThat(queue.reapExpired()).isEqualTo(Map.of());
    }
}
