package dev.harness4j.examples.bench;

import dev.harness4j.bench.Bench;
import dev.harness4j.bench.BenchPlan;
import dev.harness4j.bench.BenchRun;
import dev.harness4j.core.HarnessRegistry;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.testkit.bench.ScriptedProvider;
import dev.harness4j.testkit.fake.FakeHarness;
import dev.harness4j.testkit.fake.FakeScript;
import dev.harness4j.testkit.model.Scenario;
import dev.harness4j.testkit.model.ScriptedModelServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A child JVM that plans and runs one bench with the fake harness: {@code BenchChildMain
 * <stateDir> <repo> <model>...}, concurrency 2, each run printing, waiting 3 s and writing a
 * file. Running it again on the same state dir plans the same bench again. Prints the matrix,
 * then {@code queued N} and {@code processed ...}.
 */
public final class BenchChildMain {
    private BenchChildMain() {}

    public static void main(String[] args) throws Exception {
        Path state = Path.of(args[0]);
        Path repo = Path.of(args[1]);
        List<String> models = List.of(args).subList(2, args.length);
        String script = FakeScript.builder().print("working").silence(Duration.ofSeconds(3))
                .writeFile("out.txt", "done\n").build().encode();
        try (ScriptedModelServer server = ScriptedModelServer.start();
                HarnessRunner runner = HarnessRunner.builder().stateDir(state)
                        .registry(HarnessRegistry.builder().add(new FakeHarness()).build())
                        .providers(new ScriptedProvider(server)).build()) {
            models.forEach(m -> server.script(m, Scenario.empty()));
            Bench bench = Bench.builder(runner).concurrency(2).out(System.out, false).build();
            BenchPlan plan = bench.plan().harnesses(FakeHarness.ID).provider(ScriptedProvider.NAME)
                    .models(models.toArray(String[]::new)).task("crash", "write out.txt").baseline(repo)
                    .option(FakeHarness.SCRIPT_OPTION, script).build();
            BenchRun done = bench.run(plan);
            System.out.println("queued " + done.queued().size());
            System.out.println("processed " + done.processed());
        }
    }
}
