package dev.harness4j.examples.benchmarks;

import dev.harness4j.api.Limits;
import dev.harness4j.api.RunSpec;
import dev.harness4j.claude.ClaudeCodeHarness;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.RunRecord;
import dev.harness4j.core.process.Sandbox;
import dev.harness4j.examples.BenchMainTesting;
import dev.harness4j.testkit.bench.ScriptedProvider;
import dev.harness4j.testkit.model.Scenario;
import dev.harness4j.testkit.model.ScriptedModelServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Benchmark program (not a test): a real CLI's run sandboxed ({@link Sandbox#REQUIRED}, the
 * meter relayed in) vs unconfined ({@link Sandbox#OFF}), the same scripted task (write a file,
 * then say done) against the scripted model server, N rounds interleaved (the order flips every
 * round), two warm runners. Reports the median wall time of {@code runner.run} per mode and
 * their ratio. Target (claude-code): ≤ 1.05×.
 *
 * <pre>
 * java -cp ... dev.harness4j.examples.benchmarks.SandboxCliBenchmark [rounds=10] [harness=claude-code]
 * </pre>
 */
public final class SandboxCliBenchmark {
    private static final Limits LIMITS = Limits.NONE.withMaxRuntime(Duration.ofMinutes(3));

    private SandboxCliBenchmark() {}

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        String harness = args.length > 1 ? args[1] : ClaudeCodeHarness.ID;
        Path root = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "h4j-sandbox-cli-bench");
        Path repo = BenchMainTesting.gitRepo(root.resolve("repo"));
        List<Double> off = new ArrayList<>();
        List<Double> on = new ArrayList<>();
        try (ScriptedModelServer server = ScriptedModelServer.start().requireKey(ScriptedProvider.KEY);
                HarnessRunner free = runner(root.resolve("state-off"), Sandbox.OFF, server);
                HarnessRunner confined = runner(root.resolve("state-on"), Sandbox.REQUIRED, server)) {
            once(free, server, harness, repo, "warm-off"); // first runs pay for caches (the bwrap probe, the CLI's files)
            once(confined, server, harness, repo, "warm-on");
            for (int i = 0; i < rounds; i++) {
                if (i % 2 == 0) {
                    off.add(once(free, server, harness, repo, "off-" + i));
                    on.add(once(confined, server, harness, repo, "on-" + i));
                } else {
                    on.add(once(confined, server, harness, repo, "on-" + i));
                    off.add(once(free, server, harness, repo, "off-" + i));
                }
            }
        } finally {
            try (var paths = Files.walk(root)) {
                for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
        double mOff = median(off);
        double mOn = median(on);
        System.out.printf("%s, %d rounds: unconfined median %.0f ms (min %.0f, max %.0f); sandboxed median %.0f ms "
                        + "(min %.0f, max %.0f); ratio %.3f (target <= 1.05)%n", harness, rounds, mOff,
                Collections.min(off), Collections.max(off), mOn, Collections.min(on), Collections.max(on), mOn / mOff);
    }

    private static HarnessRunner runner(Path state, Sandbox sandbox, ScriptedModelServer server) {
        return HarnessRunner.builder().stateDir(state).sandbox(sandbox).providers(new ScriptedProvider(server)).build();
    }

    private static double once(HarnessRunner runner, ScriptedModelServer server, String harness, Path repo, String tag) {
        String model = "bench-" + tag;
        server.script(model, Scenario.builder().writeFile("hello.txt", "hello\n").usage(1234, 56, 0, 0)
                .say("Wrote hello.txt.").usage(1300, 25, 0, 0).build());
        long t0 = System.nanoTime();
        RunRecord r = runner.run(RunSpec.builder(harness, ScriptedProvider.NAME).model(model)
                .prompt("Do the scripted task.").baseline(repo).limits(LIMITS)
                .option(ClaudeCodeHarness.OPTION_MAX_RETRIES, "0").build());
        double ms = (System.nanoTime() - t0) / 1e6;
        if (!r.changes().files().contains("hello.txt")) {
            throw new IllegalStateException("run " + tag + " did not do the task: " + r.result() + " in " + r.resultDir());
        }
        return ms;
    }

    private static double median(List<Double> xs) {
        List<Double> s = new ArrayList<>(xs);
        Collections.sort(s);
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }
}
