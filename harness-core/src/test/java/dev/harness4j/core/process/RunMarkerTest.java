package dev.harness4j.core.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Finding and stopping processes by the run marker alone, as a restart sweep would. */
class RunMarkerTest {

    private static Process startMarked(String runId, String script) throws Exception {
        return startMarked(runId, null, script);
    }

    /** The scope is set in the environment the process starts with: no exec to wait for before a scoped find sees it. */
    private static Process startMarked(String runId, String scope, String script) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("sh", "-c", script)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put(RunMarker.ENV, runId);
        if (scope != null) {
            pb.environment().put(RunMarker.SCOPE_ENV, scope);
        }
        return pb.start();
    }

    @Test
    void findsEveryLiveProcessCarryingTheMarkerAndNoOther() throws Exception {
        String runId = Runs.newRunId();
        Process marked = startMarked(runId, "sleep 60 & wait");
        Process other = startMarked(runId + "-other", "sleep 60");
        try {
            awaitCount(runId, 2);
            List<ProcessHandle> found = RunMarker.find(runId);

            assertThat(found).extracting(ProcessHandle::pid).contains(marked.pid()).doesNotContain(other.pid());
            assertThat(RunMarker.find("no-such-run-" + runId)).isEmpty();
        } finally {
            marked.destroyForcibly();
            other.destroyForcibly();
            RunMarker.killAll(runId, Duration.ZERO);
        }
    }

    @Test
    void aScopedKillStopsOnlyTheProcessesOfItsStateDir() throws Exception {
        String runId = Runs.newRunId();
        Process mine = startMarked(runId, "aaaa", "exec sleep 60");
        Process theirs = startMarked(runId, "bbbb", "exec sleep 60");
        try {
            awaitCount(runId, 2);
            assertThat(RunMarker.find(runId, "aaaa")).extracting(ProcessHandle::pid).containsExactly(mine.pid());

            assertThat(RunMarker.killAll(runId, "aaaa", Duration.ofMillis(300))).isEqualTo(1);

            assertThat(mine.waitFor()).isEqualTo(128 + 15);
            assertThat(theirs.isAlive()).as("the same run id under another state dir").isTrue();
            assertThat(RunMarker.find(runId)).extracting(ProcessHandle::pid).containsExactly(theirs.pid());
        } finally {
            RunMarker.killAll(runId, Duration.ZERO);
        }
    }

    @Test
    void killAllStopsProcessesThatIgnoreTermAndCountsThem() throws Exception {
        String runId = Runs.newRunId();
        Process p = startMarked(runId, "trap '' TERM; (setsid sleep 60 &); sleep 60 & wait");
        awaitCount(runId, 3);

        int found = RunMarker.killAll(runId, Duration.ofMillis(300));

        assertThat(found).isGreaterThanOrEqualTo(3);
        assertThat(RunMarker.find(runId)).isEmpty();
        assertThat(p.waitFor()).isEqualTo(128 + 9);
        assertThat(RunMarker.killAll(runId, Duration.ofMillis(300))).isZero();
    }

    @Test
    void findsAProcessWhoseNameHasSpacesAndParenthesesAndANegativeNiceValue(@TempDir Path dir) throws Exception {
        String runId = Runs.newRunId();
        Path odd = dir.resolve("a) b (c");
        Files.copy(Path.of("/bin/sleep"), odd);
        odd.toFile().setExecutable(true);
        Process p = startMarked(runId, "exec nice -n -3 '" + odd + "' 60");
        try {
            awaitCount(runId, 1);
            awaitComm(p.pid(), "a) b (c"); // sh execs nice, which execs the odd binary: wait for the last exec


            assertThat(RunMarker.find(runId)).extracting(ProcessHandle::pid).containsExactly(p.pid());
        } finally {
            RunMarker.killAll(runId, Duration.ZERO);
        }
    }

    @Test
    void findsAProcessEvenInTheMiddleOfExecWhenItsEnvironmentReadsEmpty(@TempDir Path dir) throws Exception {
        String runId = Runs.newRunId();
        Path loop = dir.resolve("loop.sh");
        Files.writeString(loop, "exec /bin/sh \"$0\"\n"); // one exec after another, for ever
        Process p = startMarked(runId, "exec /bin/sh '" + loop + "'");
        try {
            awaitCount(runId, 1);
            int missed = 0;
            for (int i = 0; i < 400; i++) {
                if (!RunMarker.find(runId).stream().anyMatch(h -> h.pid() == p.pid())) {
                    missed++;
                }
            }

            assertThat(missed).as("scans of 400 that missed a process exec'ing in a loop").isZero();
        } finally {
            RunMarker.killAll(runId, Duration.ZERO);
        }
    }

    /** Waits until the process has exec'd a binary whose name starts with the prefix. */
    private static void awaitComm(long pid, String prefix) throws Exception {
        Path comm = Path.of("/proc/" + pid + "/comm");
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!Files.readString(comm).startsWith(prefix)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("process " + pid + " never exec'd " + prefix + ": comm is " + Files.readString(comm));
            }
            Thread.sleep(10);
        }
    }

    /** Waits until the shell has forked its children (no event to wait on: poll /proc briefly). */
    private static void awaitCount(String runId, int n) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (RunMarker.find(runId).size() < n) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("fewer than " + n + " processes of " + runId + " after 10 s");
            }
            Thread.sleep(20);
        }
    }
}
