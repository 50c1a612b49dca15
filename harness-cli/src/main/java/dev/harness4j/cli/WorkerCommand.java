package dev.harness4j.cli;

import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.provider.Providers;
import dev.harness4j.core.queue.RetryPolicy;
import dev.harness4j.postgres.PgDatabase;
import dev.harness4j.postgres.PgQueue;
import dev.harness4j.postgres.PgWorker;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code harness4j worker --db <jdbc url>}: one worker of a shared PostgreSQL queue, with its own
 * local state dir (workspaces, result files, providers.json). Start one per machine; plan into
 * the queue with {@code harness4j bench run --db ...}.
 */
@Command(name = "worker", mixinStandardHelpOptions = true,
        description = "Runs queued entries of a shared PostgreSQL queue; results go to the database.")
final class WorkerCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;
    @Mixin
    Harness4j.StateDirOption state = new Harness4j.StateDirOption();
    @Mixin
    DbOptions db = new DbOptions();
    @picocli.CommandLine.Mixin
    WireStopOptions stops = new WireStopOptions();

    @Option(names = "--name", description = "this worker's name in leases and results (default: host-pid-random)")
    String name;
    @Option(names = "--concurrency", defaultValue = "1", description = "runs at once on this machine (default 1)")
    int concurrency;
    @Option(names = "--lease", defaultValue = "PT2M", description = "how long a claim lasts without a heartbeat,"
            + " ISO-8601 (default PT2M)")
    Duration lease;
    @Option(names = "--heartbeat", defaultValue = "PT30S", description = "how often leases are renewed (default PT30S)")
    Duration heartbeat;
    @Option(names = "--exit-when-idle", description = "exit once nothing is queued or running anywhere")
    boolean exitWhenIdle;
    @Option(names = "--harness-cap", description = "NAME=N: at most N runs of this harness at once over every worker"
            + " (stored in the database)")
    Map<String, Integer> harnessCaps = new LinkedHashMap<>();
    @Option(names = "--provider-cap", description = "NAME=N: at most N runs against this provider at once over every"
            + " worker (stored in the database)")
    Map<String, Integer> providerCaps = new LinkedHashMap<>();

    @Override
    public Integer call() throws Exception {
        if (!db.present()) {
            throw new IllegalArgumentException("worker needs --db <jdbc url> (the shared queue)");
        }
        PrintWriter out = spec.commandLine().getOut();
        Path stateDir = state.resolve();
        try (PgDatabase database = db.open("harness4j-worker")) {
            database.migrate(); // fails fast: unreachable, wrong password, newer schema
            PgQueue queue = new PgQueue(database);
            harnessCaps.forEach((k, v) -> queue.cap(PgQueue.CapKind.HARNESS, k, v));
            providerCaps.forEach((k, v) -> queue.cap(PgQueue.CapKind.PROVIDER, k, v));
            try (HarnessRunner runner = stops.apply(HarnessRunner.builder()).stateDir(stateDir)
                    .providers(Providers.fromStateDir(stateDir)).build()) {
                PgWorker.Builder b = PgWorker.builder(queue, PgWorker.Executor.of(runner)).concurrency(concurrency)
                        .lease(lease).heartbeat(heartbeat).exitWhenIdle(exitWhenIdle).retryPolicy(RetryPolicy.DEFAULT);
                if (name != null) {
                    b.name(name);
                }
                try (PgWorker worker = b.build()) {
                    out.println("worker " + worker.name() + " on " + database.url() + ", state dir " + stateDir);
                    Thread hook = new Thread(worker::stop, "harness4j-worker-stop");
                    Runtime.getRuntime().addShutdownHook(hook);
                    PgWorker.Summary s = worker.run();
                    try {
                        Runtime.getRuntime().removeShutdownHook(hook);
                    } catch (IllegalStateException e) {
                        // shutting down already
                    }
                    out.println("worker " + worker.name() + ": claimed " + s.claimed() + ", recorded " + s.recorded()
                            + ", lease lost " + s.leaseLost().size() + ", unrecorded " + s.unrecorded().size()
                            + (s.unrecorded().isEmpty() ? "" : " (results kept under " + stateDir + "/results)"));
                    return s.unrecorded().isEmpty() ? Harness4j.OK : Harness4j.FAILED;
                }
            }
        }
    }
}
