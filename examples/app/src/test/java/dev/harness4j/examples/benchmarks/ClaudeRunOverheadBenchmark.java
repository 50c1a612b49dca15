package dev.harness4j.examples.benchmarks;

import dev.harness4j.api.Harness;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.RunSpec;
import dev.harness4j.core.HarnessRegistry;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.Installations;
import dev.harness4j.core.RunRecord;
import dev.harness4j.core.process.Sandbox;
import dev.harness4j.testkit.bench.ScriptedProvider;
import dev.harness4j.testkit.model.Scenario;
import dev.harness4j.testkit.model.ScriptedModelServer;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Benchmark program (not a test): one Claude Code run through {@link HarnessRunner} — metering
 * proxy on, login probe on and cached, sandbox off — against the same raw {@code claude}
 * invocation (the argv, environment, config files and stdin the adapter prepares, pointed
 * straight at the server) started by hand, both against one {@link ScriptedModelServer} with the
 * same scripted task (write a file, then answer). Contenders alternate, after one warm-up each;
 * the raw run's workspace (a clone) and config files are made before its clock starts, the
 * runner's are part of what it is timed for. Prints both medians and their ratio. Target: runner
 * ≤ 1.10 × raw. A third contender, the runner with metering and the login probe off, shows
 * which part of the difference is the runner's own (workspace, capture, result files).
 *
 * <pre>
 * java -cp examples/app/target/test-classes:examples/app/target/classes:&lt;classpath&gt; \
 *     dev.harness4j.examples.benchmarks.ClaudeRunOverheadBenchmark [runs=10]
 * </pre>
 */
public final class ClaudeRunOverheadBenchmark {
    private static final String MODEL = "scripted-a";
    private static final String PROMPT = "Create hello.txt with a greeting.";

    private ClaudeRunOverheadBenchmark() {}

    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        Path root = Files.createTempDirectory("h4j-claude-bench");
        Harness claude = HarnessRegistry.fromServices().require("claude-code");
        Path cli = Installations.defaults().require(claude);
        try (ScriptedModelServer server = ScriptedModelServer.start();
                HarnessRunner runner = HarnessRunner.builder().stateDir(root.resolve("state"))
                        .providers(new ScriptedProvider(server)).sandbox(Sandbox.OFF).build();
                HarnessRunner unmetered = HarnessRunner.builder().stateDir(root.resolve("state-unmetered"))
                        .providers(new ScriptedProvider(server)).sandbox(Sandbox.OFF).metering(false)
                        .loginProbe(false).build()) {
            Path repo = repo(root.resolve("repo"));
            // first runs: the raw CLI's, then a new runner's with every default stage (sandbox probed once,
            // login probed), then another new runner's on the same state dir (the login answer kept on disk)
            script(server);
            double rawFirst = rawRun(claude, cli, server, repo, root.resolve("raw-first"));
            double[] firsts = new double[2];
            for (int k = 0; k < 2; k++) {
                try (HarnessRunner fresh = HarnessRunner.builder().stateDir(root.resolve("state-first"))
                        .providers(new ScriptedProvider(server)).build()) {
                    script(server);
                    firsts[k] = runnerRun(fresh, repo);
                }
            }
            List<Double> raw = new ArrayList<>();
            List<Double> viaRunner = new ArrayList<>();
            List<Double> bare = new ArrayList<>();
            for (int i = -1; i < runs; i++) { // i == -1: warm-up, not counted
                script(server); // a scenario plays once: each run gets it afresh, outside the clocks
                double r = rawRun(claude, cli, server, repo, root.resolve("raw-" + (i + 1)));
                script(server);
                double h = runnerRun(runner, repo);
                script(server);
                double b = runnerRun(unmetered, repo);
                if (i >= 0) {
                    raw.add(r);
                    viaRunner.add(h);
                    bare.add(b);
                }
            }
            double rawMedian = median(raw);
            double runnerMedian = median(viaRunner);
            System.out.printf(Locale.ROOT, "claude-code, %d runs each (after a warm-up), scripted task: raw CLI median "
                    + "%.0f ms (min %.0f), through HarnessRunner (meter on, login probe cached, sandbox off) median "
                    + "%.0f ms (min %.0f); ratio %.3f (target <= 1.10)%n", runs, rawMedian, Collections.min(raw),
                    runnerMedian, Collections.min(viaRunner), runnerMedian / rawMedian);
            System.out.printf(Locale.ROOT, "  for attribution: through HarnessRunner with metering and the login probe off "
                    + "median %.0f ms, ratio %.3f to raw%n", median(bare), median(bare) / rawMedian);
            System.out.printf(Locale.ROOT, "  first runs: raw CLI %.0f ms; a new runner with every default stage (sandbox "
                    + "on) %.0f ms; another new runner on the same state dir %.0f ms (warm, sandbox off: %.0f ms)%n",
                    rawFirst, firsts[0], firsts[1], runnerMedian);
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

    /** One run through the runner; fails loudly unless it completed. Returns its wall time in ms. */
    private static double runnerRun(HarnessRunner runner, Path repo) {
        long t0 = System.nanoTime();
        RunRecord r = runner.run(RunSpec.builder("claude-code", ScriptedProvider.NAME).model(MODEL).prompt(PROMPT)
                .baseline(repo).build());
        double ms = (System.nanoTime() - t0) / 1e6;
        if (r.result().outcome() != Outcome.COMPLETED) {
            throw new IllegalStateException("the runner's run ended " + r.result().outcome() + ": " + r.result().reason());
        }
        return ms;
    }

    /**
     * The same invocation the adapter prepares, started by hand in a fresh clone with its files
     * written beforehand; fails loudly unless it exits 0 with the file written. Returns the
     * process's wall time in ms.
     */
    private static double rawRun(Harness claude, Path cli, ScriptedModelServer server, Path repo, Path dir)
            throws Exception {
        Path ws = dir.resolve("ws");
        Path scratch = Files.createDirectories(dir.resolve("scratch"));
        git(dir, "clone", "-q", repo.toString(), ws.toString());
        HarnessContext ctx = HarnessContext.builder().runId("raw").prompt(PROMPT)
                .provider(new ScriptedProvider(server).resolve(ScriptedProvider.NAME, MODEL).orElseThrow())
                .workspace(ws).scratchDir(scratch).executable(cli.toString()).environment(System.getenv())
                .runningAsRoot("root".equals(System.getProperty("user.name"))).build();
        Invocation inv = claude.prepare(ctx);
        for (Map.Entry<String, String> f : inv.files().entrySet()) {
            Path p = scratch.resolve(f.getKey());
            Files.createDirectories(p.getParent());
            Files.writeString(p, f.getValue(), StandardCharsets.UTF_8);
        }
        ProcessBuilder pb = new ProcessBuilder(inv.command()).directory(inv.workingDir().toFile())
                .redirectOutput(dir.resolve("stdout.log").toFile()).redirectError(dir.resolve("stderr.log").toFile());
        Map<String, String> env = pb.environment();
        for (String removed : inv.removeEnvironment()) {
            if (removed.endsWith("*")) {
                env.keySet().removeIf(k -> k.startsWith(removed.substring(0, removed.length() - 1)));
            } else {
                env.remove(removed);
            }
        }
        env.putAll(inv.environment());
        pb.redirectInput(inv.stdin() == null ? ProcessBuilder.Redirect.from(new File("/dev/null"))
                : ProcessBuilder.Redirect.PIPE);
        long t0 = System.nanoTime();
        Process p = pb.start();
        if (inv.stdin() != null) {
            try (var in = p.getOutputStream()) {
                in.write(inv.stdin().getBytes(StandardCharsets.UTF_8));
            }
        }
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IllegalStateException("the raw claude run did not end within 5 minutes");
        }
        double ms = (System.nanoTime() - t0) / 1e6;
        if (p.exitValue() != 0 || !Files.exists(ws.resolve("hello.txt"))) {
            throw new IllegalStateException("the raw claude run exited " + p.exitValue() + " without hello.txt; stderr: "
                    + Files.readString(dir.resolve("stderr.log")));
        }
        return ms;
    }

    private static double median(List<Double> xs) {
        List<Double> s = new ArrayList<>(xs);
        Collections.sort(s);
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }

    private static Path repo(Path dir) throws Exception {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("README.md"), "# bench\n", StandardCharsets.UTF_8);
        git(dir, "init", "-q", "-b", "main");
        git(dir, "add", "-A");
        git(dir, "-c", "user.name=b", "-c", "user.email=b@b", "commit", "-q", "-m", "init");
        return dir;
    }

    private static void git(Path dir, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("git"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).inheritIO().start();
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("git failed: " + String.join(" ", cmd));
        }
    }
}
