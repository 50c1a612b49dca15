package dev.harness4j.core.process;

import dev.harness4j.api.HarnessEvent;
import dev.harness4j.api.Invocation;
import dev.harness4j.api.Termination;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs a process that prints {@code args[1]} bytes (lines of 1 KiB) through a {@link
 * ProcessSupervisor} and exits 0 when every byte arrived in the raw file and the transcript.
 * Started by {@link FloodTest} in a child JVM with a small heap ({@code -Xmx64m}).
 */
public final class FloodMain {
    private FloodMain() {}

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        long bytes = Long.parseLong(args[1]);
        String line = "a".repeat(1023);
        AtomicLong events = new AtomicLong();
        AtomicLong maxText = new AtomicLong();
        long t0 = System.nanoTime();
        ProcessOutcome outcome;
        try (ProcessSupervisor supervisor = ProcessSupervisor.builder().build()) {
            outcome = supervisor.run(ProcessRequest.builder("flood-" + ProcessHandle.current().pid(),
                    Invocation.builder("sh", "-c", "yes '" + line + "' | head -c " + bytes).workingDir(dir).build(), dir)
                    .listener(e -> {
                        if (e instanceof HarnessEvent.OutputLine l) {
                            events.incrementAndGet();
                            maxText.accumulateAndGet(l.text().length(), Math::max);
                        }
                    }).build());
        }
        long millis = (System.nanoTime() - t0) / 1_000_000;
        long stdout = Files.size(dir.resolve("stdout.log"));
        long transcript = Files.size(dir.resolve("transcript.log"));
        System.out.printf("flood: %d bytes, %d events, %d ms (%.0f MiB/s), max heap %d MiB, outcome %s%n",
                stdout, events.get(), millis, stdout / 1048576.0 / (millis / 1000.0),
                Runtime.getRuntime().maxMemory() >> 20, outcome);
        boolean ok = outcome.termination().equals(Termination.exited()) && outcome.exitCode() == 0
                && stdout == bytes && transcript == bytes && events.get() == bytes / 1024 && maxText.get() == 1023;
        System.exit(ok ? 0 : 1);
    }
}
