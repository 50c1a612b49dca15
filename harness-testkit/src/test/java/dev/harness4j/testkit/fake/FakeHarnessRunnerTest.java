package dev.harness4j.testkit.fake;

import dev.harness4j.testkit.GitRepos;
import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.HarnessEvent;
import dev.harness4j.api.Limits;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.RunSpec;
import dev.harness4j.api.Termination;
import dev.harness4j.core.HarnessRegistry;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.RunRecord;
import dev.harness4j.core.process.RunMarker;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fake harness through {@link HarnessRunner}: stopped runs leave no process and still a result. */
class FakeHarnessRunnerTest {
    private static final String KEY = "sk-fake-runner-9876543210";
    /** Ignores TERM, leaves a setsid grandchild (ignoring TERM too), says "ready", then goes silent. */
    private static final FakeScript STUBBORN = FakeScript.builder().ignoreTerm()
            .orphanGrandchild(Duration.ofMinutes(2)).print("ready").silence(Duration.ofMinutes(2)).build();

    @TempDir Path tmp;
    private Path repo;
    private HarnessRunner runner;
    private final CountDownLatch ready = new CountDownLatch(1);
    private final ExecutorService pool = Executors.newSingleThreadExecutor();

    @BeforeEach
    void setUp() throws Exception {
        repo = GitRepos.withReadme(tmp.resolve("repo"));
        runner = HarnessRunner.builder().stateDir(tmp.resolve("state"))
                .registry(HarnessRegistry.builder().add(new FakeHarness()).build())
                .providers(new LocalProvider(KEY))
                .termGrace(Duration.ofMillis(300))
                .listener(e -> {
                    if (e instanceof HarnessEvent.OutputLine l && l.text().equals("ready")) {
                        ready.countDown();
                    }
                })
                .build();
    }

    @AfterEach
    void tearDown() {
        runner.close();
        pool.shutdownNow();
    }

    private RunSpec spec(FakeScript script, Limits limits) {
        return script.applyTo(RunSpec.builder(FakeHarness.ID, "scripted")).prompt("do it").baseline(repo)
                .limits(limits).build();
    }

    @Test
    void eachTimeoutStopsAStubbornFakeWithNoSurvivorAndWritesTheResult() throws Exception {
        for (Limits limits : List.of(Limits.NONE.withInactivityTimeout(Duration.ofMillis(700)),
                Limits.NONE.withMaxRuntime(Duration.ofMillis(700)))) {
            String runId = "fake-" + UUID.randomUUID();
            RunRecord r = runner.run(spec(STUBBORN, limits), runId);

            assertThat(r.result().outcome()).isEqualTo(Outcome.TIMEOUT);
            assertThat(r.termination().kind()).isIn(Termination.Kind.INACTIVITY_TIMEOUT, Termination.Kind.MAX_RUNTIME);
            assertThat(RunMarker.find(runId)).isEmpty();
            assertThat(r.metaFile()).exists();
            assertThat(r.resultDir().resolve("transcript.log")).content().contains("ready");
        }
    }

    @Test
    void bailStopsAStubbornFakeWithNoSurvivorAndWritesTheResult() throws Exception {
        String runId = "fake-" + UUID.randomUUID();
        Future<RunRecord> f = pool.submit(() -> runner.run(spec(STUBBORN, Limits.NONE), runId));
        assertThat(ready.await(30, TimeUnit.SECONDS)).isTrue();

        assertThat(runner.bail(runId)).isTrue();
        RunRecord r = f.get(30, TimeUnit.SECONDS);

        assertThat(r.result().outcome()).isEqualTo(Outcome.BAILED);
        assertThat(RunMarker.find(runId)).isEmpty();
        assertThat(r.metaFile()).exists();
    }

    @Test
    void theKeyTheFakePrintsNeverReachesAnyResultFile() throws Exception {
        RunRecord r = runner.run(spec(FakeScript.builder().printEnv(FakeHarness.KEY_ENV).printErr("key=" + KEY)
                .writeFile("out.txt", "done\n").commit("work").build(), Limits.NONE));

        assertThat(r.result().outcome()).isEqualTo(Outcome.COMPLETED);
        try (Stream<Path> files = Files.walk(tmp.resolve("state").resolve("results"))) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                assertThat(Files.readString(f, StandardCharsets.ISO_8859_1)).as(f.toString()).doesNotContain(KEY);
            }
        }
        assertThat(r.resultDir().resolve("transcript.log")).content().contains("***");
    }

}
