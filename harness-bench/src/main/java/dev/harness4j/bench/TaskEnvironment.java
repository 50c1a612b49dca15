package dev.harness4j.bench;

import java.util.Optional;

/**
 * Where a bench runs its tasks, and which tasks it can run: the seam between a task's needs (a
 * {@link TaskImage}, say) and what this machine provides. A {@link BenchPlan} asks its environment
 * about every task when it is built, and a task the environment refuses is a plan problem, so
 * nothing is queued. Today there is one: {@link #host()}, the runner's own process supervision
 * and sandbox on this machine, which runs every task that needs no image.
 *
 * <p>A container engine (Docker, Podman) would be a second implementation: it accepts tasks with
 * an image (building it once per bench from the Dockerfile, as {@code TaskSetup} builds
 * repositories), and runs each run's agent and verifier inside a container of it with the
 * workspace, the per-run {@code /tests} and {@code /logs/verifier} mounted (the runner's
 * confinement seam, where bubblewrap wraps a command today, would wrap it in {@code docker run}).
 *
 * <pre>{@code
 * BenchPlan plan = BenchPlan.builder(runner).suite(suite).environment(TaskEnvironment.host())...build();
 * }</pre>
 */
public interface TaskEnvironment {
    /** The environment's name ({@code host}), for messages. */
    String name();

    /**
     * Why this environment cannot run a task, one sentence naming the task and the fix, or empty
     * when it can.
     */
    Optional<String> refusal(BenchTask task);

    /** The host: runs tasks that need no image; refuses the others, naming the image and why. */
    static TaskEnvironment host() {
        return HostEnvironment.INSTANCE;
    }
}
