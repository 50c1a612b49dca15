package dev.harness4j.core.benchmarks;

import dev.harness4j.api.Invocation;
import dev.harness4j.api.SandboxNetwork;
import dev.harness4j.core.internal.process.Bubblewrap;
import dev.harness4j.core.process.Confinement;
import dev.harness4j.core.internal.process.MeterRelay;
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
 * run {@code N} times unconfined, confined without network, confined with the meter relay
 * (Perl, listening before it execs the command: what runs), and, for comparison, confined with
 * the first relay design ({@code socat} started by a shell wrapper that polls
 * {@code /proc/net/tcp} until it listens, then execs the command), interleaved in a warm JVM.
 * Target: ≤ 15 ms median over unconfined.
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
        var problem = Bubblewrap.probe(Bubblewrap.DEFAULT_BWRAP, SandboxNetwork.METER_ONLY);
        if (problem.isPresent()) {
            System.out.println("bubblewrap cannot run here: " + problem.get());
            return;
        }
        Path perl = Path.of("/usr/bin/perl");
        Path socat = Path.of("/usr/bin/socat");
        boolean withSocat = Files.isExecutable(socat);
        Path root = Files.createTempDirectory(parent, "harness4j-sandbox-bench");
        String script = "echo hello > out.txt";
        List<Double> plain = new ArrayList<>();
        List<Double> confined = new ArrayList<>();
        List<Double> relayed = new ArrayList<>();
        List<Double> socatRelayed = new ArrayList<>();
        String id = "sbench-" + ProcessHandle.current().pid() + "-";
        try (ProcessSupervisor supervisor = ProcessSupervisor.builder().build();
                ServerSocket meter = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
                MeterRelay relay = MeterRelay.start(meter.getLocalPort())) {
            for (int i = 0; i < WARMUP + runs; i++) {
                double a = once(supervisor, id + "p" + i, root.resolve("p" + i), script, null);
                Path c = root.resolve("c" + i);
                double b = once(supervisor, id + "c" + i, c, script, confinement(c, null, perl));
                Path r = root.resolve("r" + i);
                double d = once(supervisor, id + "r" + i, r, script, confinement(r, relay, perl));
                double e = Double.NaN;
                if (withSocat) {
                    Path o = root.resolve("o" + i);
                    Confinement oc = confinement(o, null, perl);
                    oc = new Confinement(oc.bwrap(), List.of(o, relay.socket().getParent()), oc.readOnly(), oc.home(),
                            oc.hidden(), oc.network(), 0, null, null);
                    List<String> argv = new ArrayList<>(List.of("sh", "-c", SOCAT_WRAPPER, "harness4j-relay",
                            Integer.toString(relay.port()), relay.socket().toString(), socat.toString(),
                            String.format(java.util.Locale.ROOT, ":%04X 00000000:0000 0A", relay.port()),
                            "sh", "-c", script));
                    e = once(supervisor, id + "o" + i, o, argv, oc);
                }
                if (i >= WARMUP) {
                    plain.add(a);
                    confined.add(b);
                    relayed.add(d);
                    socatRelayed.add(e);
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
        if (withSocat) {
            double ms = pct(socatRelayed, 0.5);
            System.out.printf("  for comparison, the first relay design (socat, waited for) median %.1f ms (p90 %.1f), "
                    + "overhead %.1f ms%n", ms, pct(socatRelayed, 0.9), ms - mp);
        }
    }

    /** The first relay design, measured for comparison: a shell starts socat, polls until it listens, execs the command. */
    private static final String SOCAT_WRAPPER = "p=$1; s=$2; x=$3; h=$4; shift 4\n"
            + "\"$x\" TCP-LISTEN:$p,bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:$s </dev/null &\n"
            + "i=0; up=\n"
            + "while :; do\n"
            + "  while IFS= read -r l; do case $l in *\"$h\"*) up=1; break;; esac; done </proc/net/tcp\n"
            + "  [ -n \"$up\" ] && break\n"
            + "  i=$((i+1)); if [ $i -gt 5000 ]; then echo 'the relay did not start' >&2; break; fi\n"
            + "  sleep 0.002\n"
            + "done\n"
            + "exec \"$@\"\n";

    private static Confinement confinement(Path dir, MeterRelay relay, Path perl) {
        return new Confinement(Bubblewrap.DEFAULT_BWRAP, List.of(dir), List.of(), dir.resolve("home"),
                List.of(Path.of(System.getProperty("user.home"))), SandboxNetwork.METER_ONLY,
                relay != null ? relay.port() : 0, relay != null ? relay.socket() : null, relay != null ? perl : null);
    }

    private static double once(ProcessSupervisor supervisor, String runId, Path dir, String script, Confinement c)
            throws Exception {
        return once(supervisor, runId, dir, List.of("sh", "-c", script), c);
    }

    private static double once(ProcessSupervisor supervisor, String runId, Path dir, List<String> argv, Confinement c)
            throws Exception {
        Files.createDirectories(dir);
        long t0 = System.nanoTime();
        ProcessOutcome o = supervisor.run(ProcessRequest.builder(runId,
                Invocation.builder(argv.get(0), argv.subList(1, argv.size()).toArray(String[]::new)).workingDir(dir).build(), dir).confinement(c).build());
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
