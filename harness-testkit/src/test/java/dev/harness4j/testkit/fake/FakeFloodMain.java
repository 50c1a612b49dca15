package dev.harness4j.testkit.fake;

import dev.harness4j.testkit.GitRepos;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.RunSpec;
import dev.harness4j.core.HarnessRegistry;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.RunRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Runs the fake harness printing {@code args[1]} bytes through a {@link HarnessRunner} and
 * exits 0 when the run completed as a no-op with the whole transcript in its result. Started
 * by {@link FakeHarnessFloodTest} in a child JVM with {@code -Xmx64m}.
 */
public final class FakeFloodMain {
    private FakeFloodMain() {}

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args[0]);
        long bytes = Long.parseLong(args[1]);
        Path repo = GitRepos.withReadme(root.resolve("repo"));
        long t0 = System.nanoTime();
        RunRecord r;
        try (HarnessRunner runner = HarnessRunner.builder().stateDir(root.resolve("state"))
                .registry(HarnessRegistry.builder().add(new FakeHarness()).build())
                .providers(new LocalProvider("sk-flood")).build()) {
            r = runner.run(FakeScript.builder().flood(bytes).build()
                    .applyTo(RunSpec.builder(FakeHarness.ID, "scripted")).prompt("flood").baseline(repo).build());
        }
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        long transcript = Files.size(r.resultDir().resolve("transcript.log"));
        System.out.printf("fake flood: %d bytes, transcript %d bytes, outcome %s, %d ms, max heap %d MiB%n",
                bytes, transcript, r.result().outcome().wireName(), millis, Runtime.getRuntime().maxMemory() >> 20);
        boolean ok = r.result().outcome() == Outcome.NO_OP && transcript >= bytes;
        System.exit(ok ? 0 : 1);
    }
}
