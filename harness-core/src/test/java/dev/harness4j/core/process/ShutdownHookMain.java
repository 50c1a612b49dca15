package dev.harness4j.core.process;

import dev.harness4j.core.internal.process.Bubblewrap;

import dev.harness4j.api.HarnessEvent;
import dev.harness4j.api.SandboxNetwork;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Runs a stubborn process tree under a supervisor that is never closed, prints {@code ready}
 * once it runs, and waits: {@link ShutdownHookTest} then terminates this JVM, so only the
 * supervisor's shutdown hook can stop the tree. With a third argument {@code sandbox}, the tree
 * runs confined by bubblewrap ({@link SandboxKillTest} kills this JVM with {@code -9}).
 */
public final class ShutdownHookMain {
    private ShutdownHookMain() {}

    public static void main(String[] args) throws Exception {
        String runId = args[0];
        Path dir = Path.of(args[1]);
        ProcessSupervisor supervisor = ProcessSupervisor.builder().termGrace(Duration.ofMillis(500)).build();
        Confinement confined = args.length > 2 && args[2].equals("sandbox")
                ? new Confinement(Bubblewrap.DEFAULT_BWRAP, java.util.List.of(dir), java.util.List.of(), dir.resolve("home"),
                        java.util.List.of(Path.of(System.getProperty("user.home"))), SandboxNetwork.METER_ONLY, 0, null, null)
                : null;
        supervisor.run(ProcessRequest.builder(runId, Runs.sh(dir, StoppingTest.STUBBORN_TREE), dir).confinement(confined)
                .listener(e -> {
                    if (e instanceof HarnessEvent.OutputLine l && l.text().equals("ready")) {
                        System.out.println("ready");
                        System.out.flush();
                    }
                }).build());
        System.out.println("run returned");
    }
}
