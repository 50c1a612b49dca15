package dev.harness4j.core.queue;

import dev.harness4j.api.HarnessResult;
import dev.harness4j.api.Isolation;
import dev.harness4j.api.Outcome;
import dev.harness4j.core.process.RunMarker;
import dev.harness4j.core.internal.workspace.SafeDelete;
import dev.harness4j.core.internal.workspace.Workspace;
import dev.harness4j.core.internal.workspace.Workspaces;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;

/**
 * A child JVM that processes a queue: {@code QueueChild <stateDir> <runMillis> <concurrency>}.
 * Each run makes {@code runs/<runId>/} (for a {@code WORKTREE} spec, a real worktree of the
 * spec's baseline through {@link Workspaces}), runs {@code sleep} carrying the run marker, then appends
 * {@code <entryId> <runId>} to {@code completions.log} and removes its workspace. Prints
 * {@code started <entryId> <runId>} per start.
 */
public final class QueueChild {
    private QueueChild() {}

    public static void main(String[] args) throws Exception {
        Path state = Path.of(args[0]);
        double seconds = Long.parseLong(args[1]) / 1000.0;
        int concurrency = Integer.parseInt(args[2]);
        RunQueue queue = RunQueue.builder().stateDir(state).killGrace(Duration.ofSeconds(2)).build();
        Workspaces workspaces = Workspaces.builder().stateDir(state).build();
        QueueProcessor.Executor exec = (runId, spec) -> {
            Workspace worktree = spec.isolation() == Isolation.WORKTREE
                    ? workspaces.isolate(runId, spec.baseline(), spec.ref(), Isolation.WORKTREE) : null;
            Path ws = Files.createDirectories(state.resolve("runs").resolve(runId));
            ProcessBuilder pb = new ProcessBuilder("sleep", String.valueOf(seconds)).inheritIO();
            pb.environment().put(RunMarker.ENV, runId);
            int code = pb.start().waitFor();
            if (code != 0) {
                return HarnessResult.builder(Outcome.ERROR, "m").reason("sleep exited " + code).build();
            }
            String entryId = queue.entries().stream().filter(e -> runId.equals(e.runId())).findFirst()
                    .orElseThrow().id();
            Files.writeString(state.resolve("completions.log"), entryId + " " + runId + "\n", StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            if (worktree != null) {
                worktree.close();
            }
            SafeDelete.deleteBelow(state.resolve("runs"), ws);
            return HarnessResult.builder(Outcome.COMPLETED, "m").build();
        };
        try (QueueProcessor p = QueueProcessor.builder(queue, exec).concurrency(concurrency)
                .pollInterval(Duration.ofMillis(50)).listener(new QueueProcessor.Listener() {
                    @Override
                    public void started(QueueEntry entry) {
                        System.out.println("started " + entry.id() + " " + entry.runId());
                        System.out.flush();
                    }
                }).build()) {
            QueueProcessor.Summary s = p.runAll();
            System.out.println("summary " + s);
        }
    }
}
