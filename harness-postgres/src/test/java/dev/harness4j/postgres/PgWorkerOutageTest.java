package dev.harness4j.postgres;

import static dev.harness4j.postgres.PgTesting.scalar;
import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.RunSpec;
import dev.harness4j.core.queue.RetryPolicy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The database goes away while a worker runs an attempt (a real network cut, through {@link TcpRelay}). */
class PgWorkerOutageTest {
    private final PgServer pg = PgServer.shared();
    @TempDir Path tmp;

    @Test
    void aWorkerThatLosesTheDatabaseMidRunFinishesKeepsTheResultAndWritesItOnceWhenItIsBack() throws Exception {
        String url = pg.newDatabase();
        String dbName = url.substring(url.lastIndexOf('/') + 1);
        try (PgDatabase direct = pg.database(url); TcpRelay relay = new TcpRelay(pg.port())) {
            direct.migrate();
            PgQueue setup = new PgQueue(direct);
            setup.enqueue("outage", PgTesting.specs("fake", "p", 1), RetryPolicy.DEFAULT);

            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch cutDone = new CountDownLatch(1);
            AtomicInteger runs = new AtomicInteger();
            CompletableFuture<Path> ran = new CompletableFuture<>();
            PgWorker.Executor executor = (runId, spec) -> {
                runs.incrementAndGet();
                started.countDown();
                if (!cutDone.await(5, TimeUnit.MINUTES)) {
                    throw new IllegalStateException("the test never cut the network");
                }
                Path dir = Files.createDirectories(tmp.resolve("results/t0/fake__p__m").resolve(runId));
                Files.writeString(dir.resolve("meta.json"), PgTesting.meta("fake", "m", "t0", "completed", 1, 10, 5,
                        0.01, null), StandardCharsets.UTF_8);
                ran.complete(dir);
                return new PgWorker.Attempt(HarnessResult.builder(Outcome.COMPLETED, "m").build(),
                        tmp.resolve("results"), dir);
            };
            String relayed = "jdbc:postgresql://127.0.0.1:" + relay.port() + "/" + dbName;
            try (PgDatabase viaRelay = PgDatabase.builder(relayed).user(PgServer.USER)
                    .password(pg.password().toCharArray()).connectTimeout(Duration.ofSeconds(5)).build();
                    PgWorker worker = PgWorker.builder(new PgQueue(viaRelay), executor).name("cut-off")
                            .lease(Duration.ofMinutes(5)).heartbeat(Duration.ofMillis(500))
                            .pollInterval(Duration.ofMillis(200)).writeRetry(Duration.ofMinutes(5))
                            .exitWhenIdle(true).build()) {
                CompletableFuture<PgWorker.Summary> summary = CompletableFuture.supplyAsync(() -> {
                    try {
                        return worker.run();
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                });
                assertThat(started.await(5, TimeUnit.MINUTES)).isTrue();
                relay.cut();
                cutDone.countDown();
                Path resultDir = ran.get(5, TimeUnit.MINUTES);
                int before = relay.refused();
                // the worker keeps trying (writes, heartbeats, claims): several connections refused
                PgTesting.await("the worker to retry against the cut network", Duration.ofMinutes(2),
                        () -> relay.refused() >= before + 4);
                assertThat(scalar(direct, "SELECT count(*) FROM h4j_result")).isZero();
                assertThat(resultDir.resolve("meta.json")).exists(); // kept on the worker's disk
                relay.restore();

                PgWorker.Summary s = summary.get(5, TimeUnit.MINUTES);
                assertThat(s.recorded()).isEqualTo(1);
                assertThat(s.unrecorded()).isEmpty();
                assertThat(s.leaseLost()).isEmpty();
            }
            assertThat(runs.get()).isEqualTo(1);
            assertThat(scalar(direct, "SELECT count(*) FROM h4j_result")).isEqualTo(1);
            assertThat(scalar(direct, "SELECT attempts FROM h4j_queue")).isEqualTo(1);
            assertThat(setup.counts("outage").done()).isEqualTo(1);
        }
    }
}
