package dev.harness4j.core.benchmarks;

import dev.harness4j.api.Invocation;
import dev.harness4j.core.process.Bubblewrap;
import dev.harness4j.core.process.Confinement;
import dev.harness4j.core.process.MeterRelay;
import dev.harness4j.core.process.ProcessOutcome;
import dev.harness4j.core.process.ProcessRequest;
import dev.harness4j.core.process.ProcessSupervisor;
import dev.harness4j.core.process.Sandbox;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Per-run overhead of the bubblewrap sandbox: the same supervised {@code sh -c 'echo ... > file'}
 * run {@code N} times unconfined, confined without network, and confined with the meter relay
 * ({@code socat} started inside and waited for), interleaved in a warm JVM. Target: ≤ 15 ms
 * median over unconfined.
 *
 * <pre>
 * java -cp ... dev.harness4j.core.benchmarks.SandboxBenchmark [runs=50] [dir=target]
 * </pre>
 */
public final class SandboxBenchmark {
    private static final int WARMUP = 5;

    private SandboxBenchmark() {}

    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 50;
        Path parent = Path.of(args.length > 1 ? args[1] : "target").toAbsolutePath();
        Files.createDirectories(parent);
        var problem = Bubblewrap.probe(Bubblewrap.DEFAULT_BWRAP, Sandbox.Network.METER_ONLY);
        if (problem.isPresent()) {
            System.out.println("bubblewrap cannot run here: " + problem.get());
            return;
        }
        Path socat = Path.of("/usr/bin/socat");
        Path root = Files.createTempDirectory(parent, "harness4j-sandbox-bench");
        String script = "echo hello > out.txt";
        List<Double> plain = new ArrayList<>();
        List<Double> confined = new ArrayList<>();
        List<Double> relayed = new ArrayList<>();
        String id = "sbench-" + ProcessHandle.current().pid() + "-";
        try (ProcessSupervisor supervisor = ProcessSupervisor.builder().build();
                ServerSocket meter = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
                MeterRelay relay = MeterRelay.start(meter.getLocalPort())) {
            for (int i = 0; i < WARMUP + runs; i++) {
                double a = once(supervisor, id + "p" + i, root.resolve("p" + i), script, null);
                Path c = root.resolve("c" + i);
                double b = once(supervisor, id + "c" + i, c, script, confinement(c, Sandbox.Network.METER_ONLY, null, socat));
                Path r = root.resolve("r" + i);
                double d = once(supervisor, id + "r" + i, r, script, confinement(r, Sandbox.Network.METER_ONLY, relay, socat));
                if (i >= WARMUP) {
                    plain.add(a);
                    confined.add(b);
                    relayed.add(d);
                }
            }
        }
        double mp = pct(plain, 0.5);
        double mc = pct(confined, 0.5);
        double mr = pct(relayed, 0.5);
        System.out.printf("runs=%d unconfined median %.1f ms (p90 %.1f); sandboxed median %.1f ms (p90 %.1f), "
                        + "overhead %.1f ms; sandboxed with the meter relay median %.1f ms (p90 %.1f), overhead %.1f ms "
                        + "(target <= 15 ms)%n",
                runs, mp, pct(plain, 0.9), mc, pct(confined, 0.9), mc - mp, mr, pct(relayed, 0.9), mr - mp);
    }

    private static Confinement confinement(Path dir, Sandbox.Network network, MeterRelay relay, Path socat) {
        return new Confinement(Bubblewrap.DEFAULT_BWRAP, List.of(dir), List.of(), dir.resolve("home"),
                List.of(Path.of(System.getProperty("user.home"))), network, relay != null ? relay.port() : 0,
                relay != null ? relay.socket() : null, relay != null ? socat : null);
    }

    private static double once(ProcessSupervisor supervisor, String runId, Path dir, String script, Confinement c)
            throws Exception {
        Files.createDirectories(dir);
        long t0 = System.nanoTime();
        ProcessOutcome o = supervisor.run(ProcessRequest.builder(runId,
                Invocation.builder("sh", "-c", script).workingDir(dir).build(), dir).confinement(c).build());
        long t1 = System.nanoTime();
        if (o.exitCode() == null || o.exitCode() != 0 || !Files.exists(dir.resolve("out.txt"))) {
            throw new IllegalStateException("run " + runId + " failed: " + o);
        }
        return (t1 - t0) / 1e6;
    }

    private static double pct(List<Double> xs, double q) {
        List<Double> s = new ArrayList<>(xs);
        Collections.sort(s);
        return s.get((int) Math.min(s.size() - 1, Math.floor(q * s.size())));
    }
}
