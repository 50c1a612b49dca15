package dev.harness4j.acp.benchmarks;

import dev.harness4j.acp.AcpGeminiHarness;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.RunSpec;
import dev.harness4j.core.HarnessRegistry;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.RunRecord;
import dev.harness4j.core.process.Sandbox;
import dev.harness4j.gemini.GeminiHarness;
import dev.harness4j.testkit.GitRepos;
import dev.harness4j.testkit.bench.ScriptedProvider;
import dev.harness4j.testkit.model.Scenario;
import dev.harness4j.testkit.model.ScriptedModelServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Benchmark program (not a test): Gemini CLI through its ACP adapter ({@code acp:gemini}, {@code
 * gemini --acp} driven over JSON-RPC) against its native adapter ({@code gemini}, {@code
 * --output-format stream-json}), both through one {@link HarnessRunner} (meter on, sandbox as
 * given) against one {@link ScriptedModelServer} with the same scripted task (write a file, then
 * answer). Contenders alternate after one warm-up each; prints both medians and their ratio.
 * Target: ACP ≤ 1.10 × native.
 *
 * <pre>
 * java -cp harness-acp/target/test-classes:harness-acp/target/classes:&lt;classpath&gt; \
 *     dev.harness4j.acp.benchmarks.AcpVsNativeBenchmark [runs=10] [sandbox=OFF|AUTO]
 * </pre>
 */
public final class AcpVsNativeBenchmark {
    private static final String MODEL = "scripted-a";
    private static final String PROMPT = "Create hello.txt with a greeting.";

    private AcpVsNativeBenchmark() {}

    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        Sandbox sandbox = args.length > 1 ? Sandbox.valueOf(args[1]) : Sandbox.OFF;
        Path root = Files.createTempDirectory("h4j-acp-bench");
        try (ScriptedModelServer server = ScriptedModelServer.start();
                HarnessRunner runner = HarnessRunner.builder().stateDir(root.resolve("state"))
                        .registry(HarnessRegistry.builder().add(new GeminiHarness()).add(new AcpGeminiHarness()).build())
                        .providers(new ScriptedProvider(server)).sandbox(sandbox).build()) {
            Path repo = GitRepos.withReadme(root.resolve("repo"));
            List<Double> nativeMs = new ArrayList<>();
            List<Double> acpMs = new ArrayList<>();
            for (int i = -1; i < runs; i++) { // i == -1: warm-up, not counted
                script(server);
                double n = run(runner, GeminiHarness.ID, repo);
                script(server);
                double a = run(runner, "acp:gemini", repo);
                if (i >= 0) {
                    nativeMs.add(n);
                    acpMs.add(a);
                }
            }
            double nm = median(nativeMs);
            double am = median(acpMs);
            System.out.printf(Locale.ROOT, "gemini %s, %d runs each (after a warm-up), scripted task, meter on, sandbox "
                    + "%s: native adapter median %.0f ms (min %.0f), acp:gemini median %.0f ms (min %.0f); ratio %.3f "
                    + "(target <= 1.10)%n", GeminiHarness.VERSION, runs, sandbox, nm, Collections.min(nativeMs), am,
                    Collections.min(acpMs), am / nm);
        } finally {
            try (var paths = Files.walk(root)) {
                for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    private static void script(ScriptedModelServer server) {
        server.script(MODEL, Scenario.builder().writeFile("hello.txt", "hello\n").usage(120, 30, 0, 0)
                .say("Created hello.txt.").usage(40, 10, 0, 0).build());
    }

    /** One run; fails loudly unless it completed. Returns its wall time in ms. */
    private static double run(HarnessRunner runner, String harness, Path repo) {
        long t0 = System.nanoTime();
        RunRecord r = runner.run(RunSpec.builder(harness, ScriptedProvider.NAME).model(MODEL).prompt(PROMPT)
                .baseline(repo).build());
        double ms = (System.nanoTime() - t0) / 1e6;
        if (r.result().outcome() != Outcome.COMPLETED) {
            throw new IllegalStateException(harness + " ended " + r.result().outcome() + ": " + r.result().reason());
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
