package dev.harness4j.core.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.Isolation;
import dev.harness4j.api.RunSpec;
import dev.harness4j.core.process.RunMarker;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real child JVMs sharing one state dir: concurrent claiming, and {@code kill -9} mid-run. */
class QueueCrashRecoveryTest {
    @TempDir Path state;

    private Process child(long runMillis, int concurrency) throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        return new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                QueueChild.class.getName(), state.toString(), Long.toString(runMillis), Integer.toString(concurrency))
                .redirectErrorStream(true).start();
    }

    private List<String> enqueue(int n) {
        RunQueue q = RunQueue.builder().stateDir(state).build();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ids.add(q.enqueue(QueueTesting.spec("h" + i, "p" + (i % 3), "m")).id());
        }
        return ids;
    }

    private List<QueueEntry> entries() {
        return RunQueue.builder().stateDir(state).build().entries();
    }

    private Map<String, Long> completions() throws Exception {
        Path log = state.resolve("completions.log");
        if (!Files.exists(log)) {
            return Map.of();
        }
        return Files.readAllLines(log).stream().map(l -> l.split(" ")[0])
                .collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
    }

    @Test
    void twoProcessesSharingTheStateDirNeverRunTheSameEntry() throws Exception {
        List<String> ids = enqueue(12);
        Process a = child(100, 2);
        Process b = child(100, 2);
        assertThat(a.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(b.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String outA = new String(a.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String outB = new String(b.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(a.exitValue()).as(outA).isZero();
        assertThat(b.exitValue()).as(outB).isZero();

        assertThat(completions()).containsOnlyKeys(ids).allSatisfy((id, n) -> assertThat(n).as(id).isEqualTo(1L));
        long startsA = outA.lines().filter(l -> l.startsWith("started ")).count();
        long startsB = outB.lines().filter(l -> l.startsWith("started ")).count();
        assertThat(startsA + startsB).isEqualTo(12);
        assertThat(RunQueue.builder().stateDir(state).build().entries())
                .allSatisfy(e -> assertThat(e.state()).isEqualTo(QueueEntry.State.DONE));
    }

    @Test
    void afterKillMinus9TheNextStartFinishesEveryEntryExactlyOnceAndLeavesNothingBehind() throws Exception {
        List<String> ids = enqueue(4);
        List<String> runIds = killMidRun(2);
        for (String runId : runIds) {
            assertThat(RunMarker.find(runId)).as("survivor of " + runId + " before recovery").isNotEmpty();
            assertThat(state.resolve("runs").resolve(runId)).exists();
        }

        Process second = child(50, 2);
        assertThat(second.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String out = new String(second.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(second.exitValue()).as(out).isZero();

        assertThat(completions()).containsOnlyKeys(ids).allSatisfy((id, n) -> assertThat(n).as(id).isEqualTo(1L));
        for (String runId : runIds) {
            assertThat(RunMarker.find(runId)).as("survivor of " + runId + " after recovery").isEmpty();
        }
        try (var left = Files.list(state.resolve("runs"))) {
            assertThat(left).as("stale workspaces").isEmpty();
        }
        List<QueueEntry> entries = RunQueue.builder().stateDir(state).build().entries();
        assertThat(entries).allSatisfy(e -> assertThat(e.state()).isEqualTo(QueueEntry.State.DONE));
        assertThat(entries.stream().filter(e -> e.attempts() == 2).count()).isEqualTo(2);
    }

    @Test
    void afterKillMinus9InWorktreeModeRecoveryLeavesNoStaleWorktreeRegistration(@TempDir Path repo) throws Exception {
        git(repo, "init", "-q", "-b", "main");
        Files.writeString(repo.resolve("a.txt"), "a\n");
        git(repo, "add", "a.txt");
        git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "first");
        RunQueue q = RunQueue.builder().stateDir(state).build();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            ids.add(q.enqueue(RunSpec.builder("h" + i, "p" + i).model("m").prompt("add a file").baseline(repo)
                    .isolation(Isolation.WORKTREE).task("t1").build()).id());
        }
        List<String> runIds = killMidRun(2);
        assertThat(worktrees(repo)).as("registered before recovery").hasSize(3);

        Process second = child(50, 2);
        assertThat(second.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String out = new String(second.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(second.exitValue()).as(out).isZero();

        assertThat(completions()).as("completions; the child printed:%n%s%nentries: %s", out, entries())
                .containsOnlyKeys(ids).allSatisfy((id, n) -> assertThat(n).as(id).isEqualTo(1L));
        for (String runId : runIds) {
            assertThat(RunMarker.find(runId)).as("survivor of " + runId + " after recovery").isEmpty();
        }
        try (var left = Files.list(state.resolve("runs"))) {
            assertThat(left).as("stale workspaces").isEmpty();
        }
        assertThat(worktrees(repo)).as("worktree registrations after recovery")
                .containsExactly(repo.toRealPath().toString());
    }

    /**
     * Starts a child processing the queue with {@code concurrency} slow runs, waits until that
     * many have their marked process up (in worktree mode the worktree is made before it), then
     * kills the child with SIGKILL (no shutdown hook, no cleanup). Returns the killed runs' ids.
     */
    private List<String> killMidRun(int concurrency) throws Exception {
        Process first = child(30_000, concurrency);
        List<String> runIds = new ArrayList<>();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(first.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while (runIds.size() < concurrency && (line = out.readLine()) != null) {
                if (line.startsWith("started ")) {
                    runIds.add(line.split(" ")[2]);
                }
            }
            assertThat(runIds).hasSize(concurrency);
            for (String runId : runIds) {
                awaitMarker(runId);
            }
            first.destroyForcibly();
            assertThat(first.waitFor(10, TimeUnit.SECONDS)).isTrue();
        }
        return runIds;
    }

    /** The paths {@code git worktree list --porcelain} reports, the main worktree first. */
    private static List<String> worktrees(Path repo) throws Exception {
        return git(repo, "worktree", "list", "--porcelain").lines().filter(l -> l.startsWith("worktree "))
                .map(l -> l.substring("worktree ".length())).toList();
    }

    private static String git(Path dir, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("git", "-C", dir.toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("git " + String.join(" ", args) + ": " + out).isZero();
        return out;
    }

    private static void awaitMarker(String runId) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (RunMarker.find(runId).isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(20); // another process: nothing to wait on but /proc
        }
    }
}
