package dev.harness4j.postgres;

import dev.harness4j.api.CompletionMode;
import dev.harness4j.api.Execution;
import dev.harness4j.api.Harness;
import dev.harness4j.api.HarnessContext;
import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.InstallInfo;
import dev.harness4j.api.Invocation;
import dev.harness4j.core.HarnessRegistry;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.process.Sandbox;
import dev.harness4j.core.queue.RunLauncher;
import dev.harness4j.testkit.bench.ScriptedProvider;
import dev.harness4j.testkit.fake.FakeHarness;
import dev.harness4j.testkit.model.Scenario;
import dev.harness4j.testkit.model.ScriptedModelServer;
import java.nio.file.Path;
import java.time.Duration;

/**
 * One worker JVM for the multi-worker tests, "as if on another machine": its own state dir, the
 * fake harness (and a second one, {@value #CAPPED}, for cap tests) through a real {@link
 * HarnessRunner}, the password from {@code HARNESS4J_DB_PASSWORD}. Prints one {@code
 * WORKER-SUMMARY} line and exits 0 when the queue is empty.
 *
 * <p>Arguments: {@code <jdbc url> <state dir> <worker name> <lease ms> <heartbeat ms> <concurrency>}.
 */
public final class TestWorkerMain {
    /** The id of the second fake harness. */
    public static final String CAPPED = "fake-capped";

    private TestWorkerMain() {}

    public static void main(String[] args) throws Exception {
        String url = args[0];
        Path state = Path.of(args[1]);
        String name = args[2];
        Duration lease = Duration.ofMillis(Long.parseLong(args[3]));
        Duration heartbeat = Duration.ofMillis(Long.parseLong(args[4]));
        int concurrency = Integer.parseInt(args[5]);
        HarnessRegistry registry = HarnessRegistry.builder().add(new FakeHarness()).add(new Renamed(CAPPED)).build();
        try (ScriptedModelServer server = ScriptedModelServer.start();
                HarnessRunner runner = HarnessRunner.builder().stateDir(state).registry(registry)
                        .providers(new ScriptedProvider(server)).sandbox(Sandbox.OFF).build();
                PgDatabase db = PgDatabase.builder(url).user(PgServer.USER).passwordFromEnvironment(System.getenv())
                        .applicationName("harness4j-test-" + name).build();
                PgWorker worker = PgWorker.builder(new PgQueue(db), RunLauncher.of(runner)).name(name)
                        .concurrency(concurrency).lease(lease).heartbeat(heartbeat)
                        .pollInterval(Duration.ofMillis(200)).exitWhenIdle(true).build()) {
            server.script("m", Scenario.builder().say("done").build()); // the fake harness never asks it
            System.out.println("WORKER-STARTED " + name + " pid " + ProcessHandle.current().pid());
            PgWorker.Summary s = worker.run();
            System.out.println("WORKER-SUMMARY " + name + " claimed=" + s.claimed() + " recorded=" + s.recorded()
                    + " leaseLost=" + String.join(",", s.leaseLost()) + " unrecorded=" + String.join(",", s.unrecorded()));
        }
        System.exit(0);
    }

    /** The fake harness under another id. */
    static final class Renamed implements Harness {
        private final FakeHarness fake = new FakeHarness();
        private final String id;

        Renamed(String id) {
            this.id = id;
        }

        @Override
        public String id() {
            return id;
        }

        @Override
        public CompletionMode completionMode() {
            return fake.completionMode();
        }

        @Override
        public InstallInfo installInfo() {
            return fake.installInfo();
        }

        @Override
        public Invocation prepare(HarnessContext ctx) {
            return fake.prepare(ctx);
        }

        @Override
        public HarnessResult interpret(Execution execution) {
            return fake.interpret(execution);
        }
    }
}
