package dev.harness4j.examples.bench;

import dev.harness4j.core.HarnessRegistry;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.process.Sandbox;
import dev.harness4j.core.queue.QueueEntry;
import dev.harness4j.core.queue.QueueProcessor;
import dev.harness4j.core.queue.RunQueue;
import dev.harness4j.testkit.bench.ScriptedProvider;
import dev.harness4j.testkit.fake.FakeHarness;
import dev.harness4j.testkit.model.Scenario;
import dev.harness4j.testkit.model.ScriptedModelServer;
import java.nio.file.Path;

/**
 * A child JVM that runs a state dir's queue through a real {@link HarnessRunner} with the fake
 * harness: {@code QueueChildMain <stateDir> <concurrency> <model>...}. Prints {@code started
 * <entryId> <runId>} per start and {@code summary ...} at the end.
 */
public final class QueueChildMain {
    /** The system property that confines the runs ({@code true}: {@code Sandbox.REQUIRED}; else {@code OFF}). */
    public static final String SANDBOXED = "harness4j.test.sandboxed";

    private QueueChildMain() {}

    public static void main(String[] args) throws Exception {
        Path state = Path.of(args[0]);
        int concurrency = Integer.parseInt(args[1]);
        try (ScriptedModelServer server = ScriptedModelServer.start()) {
            for (int i = 2; i < args.length; i++) {
                server.script(args[i], Scenario.empty());
            }
            RunQueue queue = RunQueue.builder().stateDir(state).build();
            try (HarnessRunner runner = HarnessRunner.builder().stateDir(state)
                    .registry(HarnessRegistry.builder().add(new FakeHarness()).build())
                    .providers(new ScriptedProvider(server))
                    // unconfined, a kill -9 leaves the runs' trees for recovery to sweep; sandboxed, they die
                    // with this JVM (--die-with-parent): QueueKillRecoveryTest checks both
                    .sandbox(Boolean.getBoolean(SANDBOXED) ? Sandbox.REQUIRED : Sandbox.OFF).build();
                    QueueProcessor p = QueueProcessor.builder(queue, QueueProcessor.Executor.of(runner))
                            .concurrency(concurrency).listener(new QueueProcessor.Listener() {
                                @Override
                                public void started(QueueEntry entry) {
                                    System.out.println("started " + entry.id() + " " + entry.runId());
                                    System.out.flush();
                                }
                            }).build()) {
                System.out.println("summary " + p.runAll());
            }
        }
    }
}
