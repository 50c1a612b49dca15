package dev.harness4j.postgres;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** Starts {@link TestWorkerMain} in JVMs of their own and reads what they printed. */
final class WorkerJvms implements AutoCloseable {
    private final List<Process> started = new ArrayList<>();

    /** A started worker JVM and the file its output goes to. */
    record Worker(String name, Process process, Path log) {
        String output() {
            try {
                return Files.readString(log, StandardCharsets.UTF_8);
            } catch (IOException e) {
                return "(unreadable: " + e + ")";
            }
        }

        /** The WORKER-SUMMARY line, once the worker printed it. */
        Optional<String> summary() {
            return output().lines().filter(l -> l.startsWith("WORKER-SUMMARY")).findFirst();
        }

        /** Sends a signal (STOP, CONT, KILL) to the worker's JVM. */
        void signal(String name) throws Exception {
            Process p = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start();
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException("kill -" + name + " " + process.pid() + " failed");
            }
        }

        int awaitExit(long seconds) throws InterruptedException {
            if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
                throw new AssertionError("worker " + name + " did not exit within " + seconds + " s; output:\n" + output());
            }
            return process.exitValue();
        }
    }

    Worker start(PgServer pg, String url, Path state, String name, long leaseMs, long heartbeatMs, int concurrency)
            throws IOException {
        Files.createDirectories(state);
        Path log = state.resolve("worker-" + name + ".log"); // workers may share a state dir
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(java, "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-cp", System.getProperty("java.class.path"), TestWorkerMain.class.getName(), url, state.toString(), name,
                Long.toString(leaseMs), Long.toString(heartbeatMs), Integer.toString(concurrency))
                .redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().put(PgDatabase.ENV_PASSWORD, pg.password());
        Process p = pb.start();
        started.add(p);
        return new Worker(name, p, log);
    }

    @Override
    public void close() {
        for (Process p : started) {
            if (p.isAlive()) {
                p.destroyForcibly();
                try {
                    new ProcessBuilder("kill", "-CONT", Long.toString(p.pid())).start().waitFor(10, TimeUnit.SECONDS);
                    p.waitFor(30, TimeUnit.SECONDS);
                } catch (IOException | InterruptedException e) {
                    // best effort
                }
            }
        }
    }
}
