package dev.harness4j.core.internal.run;

import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.core.Installations;
import dev.harness4j.core.RunObserver;
import dev.harness4j.core.internal.capture.ResultStore;
import dev.harness4j.core.internal.workspace.ChangeCollector;
import dev.harness4j.core.internal.workspace.Workspaces;
import dev.harness4j.core.process.ProcessSupervisor;
import dev.harness4j.core.process.RunEnvironment;
import dev.harness4j.api.ProviderResolver;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.function.BiFunction;
import java.util.function.Consumer;

/**
 * What a runner shares with its built-in stages: the workspaces, the supervisor, the result
 * store, the environment runs start from. One per runner; thread-safe.
 *
 * @param workspaces the runner's workspaces (state dir, git)
 * @param changes captures a workspace's changes
 * @param results writes result dirs
 * @param supervisor runs and guards processes
 * @param installations where the CLIs are
 * @param environment the runner's environment as adapters see it ({@code HarnessContext.environment()}), never
 *     handed whole to a process
 * @param runEnvironment what a run's processes start from ({@link RunEnvironment})
 * @param runningAsRoot whether the JVM runs as root
 * @param housekeeping background deletes of finished checkouts
 * @param observers told about each finished run
 * @param providers the runner's resolvers
 * @param resolve resolves a provider and model as a run does (throws when it cannot)
 * @param processEnded told the run id once its harness process has ended (later bails are refused)
 */
public record RunnerServices(Workspaces workspaces, ChangeCollector changes, ResultStore results,
        ProcessSupervisor supervisor, Installations installations, Map<String, String> environment, RunEnvironment runEnvironment, boolean runningAsRoot,
        ExecutorService housekeeping, List<RunObserver> observers, List<ProviderResolver> providers,
        BiFunction<String, String, ResolvedProvider> resolve, Consumer<String> processEnded) {
    public RunnerServices {
        Objects.requireNonNull(workspaces, "workspaces");
        Objects.requireNonNull(changes, "changes");
        Objects.requireNonNull(results, "results");
        Objects.requireNonNull(supervisor, "supervisor");
        Objects.requireNonNull(installations, "installations");
        environment = Map.copyOf(environment);
        Objects.requireNonNull(runEnvironment, "runEnvironment");
        Objects.requireNonNull(housekeeping, "housekeeping");
        observers = List.copyOf(observers);
        providers = List.copyOf(providers);
        Objects.requireNonNull(resolve, "resolve");
        Objects.requireNonNull(processEnded, "processEnded");
    }

    /** The environment every process of a run starts from (before its invocation's variables). */
    public Map<String, String> processEnvironment() {
        return runEnvironment.base();
    }
}
