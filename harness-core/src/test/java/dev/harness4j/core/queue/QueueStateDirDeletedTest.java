package dev.harness4j.core.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.HarnessException;
import dev.harness4j.api.Outcome;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The state dir deleted under a running processor whose runs are real processes. */
class QueueStateDirDeletedTest {
    @TempDir Path tmp;
    private final ExecutorService background = Executors.newCachedThreadPool();
    private final Set<Throwable> uncaught = ConcurrentHashMap.newKeySet();
    private final Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();

    QueueStateDirDeletedTest() {
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> uncaught.add(e));
    }

    @AfterEach
    void tearDown() {
        background.shutdownNow();
        Thread.setDefaultUncaughtExceptionHandler(previous);
    }

    @Test
    void aDeletedStateDirStopsTheProcessorWithOneErrorBailsItsRunsAndCreatesNothing() throws Exception {
        Path state = tmp.resolve("state");
        RunQueue q = RunQueue.builder().stateDir(state).build();
        q.enqueue(List.of(QueueTesting.spec("a", "p", "m"), QueueTesting.spec("b", "p", "m"),
                QueueTesting.spec("c", "p", "m")));
        Map<String, Process> procs = new ConcurrentHashMap<>();
        CountDownLatch started = new CountDownLatch(2);
        QueueProcessor.Executor exec = new QueueProcessor.Executor() {
            @Override
            public dev.harness4j.api.HarnessResult run(String runId, dev.harness4j.api.RunSpec spec) throws Exception {
                Path ws = Files.createDirectories(state.resolve("runs").resolve(runId));
                Process p = new ProcessBuilder("sleep", "60").start();
                procs.put(runId, p);
                started.countDown();
                p.waitFor();
                // like the runner: write the result into the run's directory (gone by now)
                Files.writeString(ws.resolve("result.json"), "{}");
                return QueueTesting.result(Outcome.BAILED);
            }

            @Override
            public boolean bail(String runId) {
                Process p = procs.get(runId);
                if (p == null) {
                    return false;
                }
                p.destroy();
                return true;
            }
        };
        try (QueueProcessor p = QueueProcessor.builder(q, exec).concurrency(2).pollInterval(Duration.ofMillis(100))
                .build()) {
            Future<QueueProcessor.Summary> run = background.submit(p::runAll);
            assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();
            deleteTree(state);

            Throwable thrown = null;
            try {
                run.get(30, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                thrown = e.getCause();
            }
            assertThat(thrown).isInstanceOf(HarnessException.class).hasMessageContaining("deleted");
            assertThat(procs.values()).allSatisfy(proc -> assertThat(proc.isAlive()).isFalse());
            assertThat(procs).hasSize(2); // c never started
        }
        assertThat(uncaught).isEmpty();
        assertThat(state).doesNotExist();
    }

    private static void deleteTree(Path root) throws IOException {
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException exc) throws IOException {
                Files.delete(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
