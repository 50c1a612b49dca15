package dev.harness4j.core.benchmarks;

import dev.harness4j.api.Isolation;
import dev.harness4j.api.Outcome;
import dev.harness4j.api.RunSpec;
import dev.harness4j.core.HarnessRegistry;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.RunRecord;
import dev.harness4j.core.ShellHarness;
import dev.harness4j.api.SandboxNetwork;
import dev.harness4j.core.internal.process.Bubblewrap;
import dev.harness4j.core.internal.process.MeterRelay;
import dev.harness4j.core.process.Confinement;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Per-run overhead of {@link HarnessRunner}: a process that writes one file, run N times through
 * the runner (warm JVM, small repository, default isolation) against spawning the same process
 * directly in a directory, interleaved. Reports medians, the median overhead in ms and the ratio.
 * Args: {@code [runs=30] [isolation=CLONE] [dir=a new temp dir]}, {@code dir} being where the
 * baseline and the state dir go. Since a run creates and deletes dozens of files (the
 * checkout, its {@code .git}, the captured output, the results), the overhead follows the file
 * system's cost of creating a file: the program measures that too (20 small files, the size of
 * the repository's checkout) and prints it next to the overhead. Where bubblewrap works (the runner
 * then confines each run), the same process is also spawned directly inside bubblewrap with the
 * meter relay, as a run's process is started, so the overhead is shown over that too: the part of
 * a run's time that is the sandbox's own start, not the runner's.
 *
 * <pre>
 * mvn -o -q -pl harness-core -am test-compile exec:java -Dexec.classpathScope=test \
 *     -Dexec.mainClass=dev.harness4j.core.benchmarks.OverheadBenchmark -Dexec.args="30"
 * </pre>
 */
public final class OverheadBenchmark {
    private OverheadBenchmark() {}

    private static final String SCRIPT = "echo done > result.txt";

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 30;
        Isolation isolation = args.length > 1 ? Isolation.valueOf(args[1]) : Isolation.CLONE;
        Path root = args.length > 2 ? Files.createTempDirectory(Path.of(args[2]), "h4j-overhead-bench")
                : Files.createTempDirectory("h4j-overhead-bench");
        List<Double> creating = new ArrayList<>();
        Path repo = IsolationBenchmark.generate(root.resolve("repo"), 20);
        Path direct = Files.createDirectories(root.resolve("direct"));
        List<Double> viaRunner = new ArrayList<>();
        List<Double> spawned = new ArrayList<>();
        List<Double> sandboxed = new ArrayList<>();
        boolean bwrap = Bubblewrap.probe(Bubblewrap.DEFAULT_BWRAP, SandboxNetwork.METER_ONLY).isEmpty();
        Path boxed = Files.createDirectories(root.resolve("boxed"));
        Map<String, List<Double>> stages = new LinkedHashMap<>();
        List<String> chain;
        try (ServerSocket meter = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
                MeterRelay relay = MeterRelay.start(meter.getLocalPort());
                HarnessRunner runner = HarnessRunner.builder().stateDir(root.resolve("state"))
                .registry(HarnessRegistry.builder().add(new ShellHarness()).build())
                .providers(ShellHarness.provider()).build()) {
            chain = runner.stageNames();
            RunSpec spec = RunSpec.builder(ShellHarness.ID, "local").model("bench").prompt("write a file")
                    .baseline(repo).isolation(isolation).option("script", SCRIPT).build();
            int warmup = Math.max(30, n / 2); // C2 compiles the run path after some dozens of runs
            for (int i = -warmup; i < n; i++) {
                creating.add(createFiles(root.resolve("files-" + (i + warmup)), 20));
                long t0 = System.nanoTime();
                spawn(direct);
                long t1 = System.nanoTime();
                RunRecord r = runner.run(spec);
                long t2 = System.nanoTime();
                if (bwrap) {
                    sandboxed.add(spawnSandboxed(boxed, relay));
                }
                if (r.result().outcome() != Outcome.COMPLETED) {
                    throw new IllegalStateException("run " + r.runId() + " ended " + r.result());
                }
                if (i < 0) {
                    creating.clear();
                    sandboxed.clear();
                }
                if (i >= 0) {
                    spawned.add(Timing.ms(t1 - t0));
                    viaRunner.add(Timing.ms(t2 - t1));
                    r.stageTimes().forEach((k, v) -> stages.computeIfAbsent(k, x -> new ArrayList<>())
                            .add(v.toNanos() / 1e6));
                }
            }
        } finally {
            Timing.sh(root, "rm", "-rf", root.toString());
        }
        double d = Timing.median(spawned);
        double h = Timing.median(viaRunner);
        System.out.printf("%d runs, isolation %s, process: sh -c '%s', in %s%n", n, isolation, SCRIPT, root);
        System.out.printf("  creating 20 files  median %s ms (this file system's cost, for scale)%n",
                Timing.fmt(Timing.median(creating)));
        System.out.printf("  spawned directly   median %s ms%n", Timing.fmt(d));
        System.out.printf("  via HarnessRunner  median %s ms%n", Timing.fmt(h));
        System.out.printf("  overhead           median %s ms   ratio %.1fx%n", Timing.fmt(h - d), h / d);
        if (bwrap) {
            double b = Timing.median(sandboxed);
            System.out.printf("  spawned directly in bubblewrap with the meter relay, as a run's process is: median %s ms%n",
                    Timing.fmt(b));
            System.out.printf("  overhead over that spawn  median %s ms   ratio %.1fx%n", Timing.fmt(h - b), h / b);
        }
        System.out.println("  the chain: " + String.join(" > ", chain));
        System.out.println("  time in each stage, outside the stages it wraps (median ms; 'harness' includes the process):");
        String costliest = null;
        double most = -1;
        for (Map.Entry<String, List<Double>> e : stages.entrySet()) {
            double m = Timing.median(e.getValue());
            System.out.printf("    %-16s %s%n", e.getKey(), Timing.fmt(m));
            if (!e.getKey().equals("harness") && m > most) {
                most = m;
                costliest = e.getKey();
            }
        }
        System.out.printf("  costliest stage but the harness process: %s (%s ms)%n", costliest, Timing.fmt(most));
    }

    /** Creates {@code n} small files in a new directory, as a checkout does; returns the ms it took. */
    private static double createFiles(Path dir, int n) throws Exception {
        byte[] content = "file\nsome content line\n".getBytes(StandardCharsets.UTF_8);
        long t0 = System.nanoTime();
        Files.createDirectories(dir);
        for (int i = 0; i < n; i++) {
            Files.write(dir.resolve("f" + i + ".txt"), content, StandardOpenOption.CREATE_NEW);
        }
        return Timing.ms(System.nanoTime() - t0);
    }

    /** The same process in bubblewrap, confined as a run's (meter relay, hidden HOME), unsupervised; ms. */
    private static double spawnSandboxed(Path dir, MeterRelay relay) throws Exception {
        Confinement c = new Confinement(Bubblewrap.DEFAULT_BWRAP, List.of(dir), List.of(), dir.resolve("home"),
                List.of(Path.of(System.getProperty("user.home"))), SandboxNetwork.METER_ONLY, relay.port(), relay.socket(),
                Path.of("/usr/bin/perl"));
        List<String> cmd = Bubblewrap.command(c, dir, List.of("sh", "-c", SCRIPT));
        long t0 = System.nanoTime();
        Process p = new ProcessBuilder(cmd).directory(dir.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectErrorStream(true).start();
        if (p.waitFor() != 0) {
            throw new IllegalStateException("bwrap sh exited " + p.exitValue() + ": " + cmd);
        }
        return Timing.ms(System.nanoTime() - t0);
    }

    private static void spawn(Path dir) throws Exception {
        Process p = new ProcessBuilder("sh", "-c", SCRIPT).directory(dir.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectErrorStream(true).start();
        if (p.waitFor() != 0) {
            throw new IllegalStateException("sh exited " + p.exitValue());
        }
    }
}
