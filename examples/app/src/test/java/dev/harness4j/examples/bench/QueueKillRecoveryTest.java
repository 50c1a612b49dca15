package dev.harness4j.examples.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.RunSpec;
import dev.harness4j.api.SandboxNetwork;
import dev.harness4j.core.ResultIndex;
import dev.harness4j.core.ResultQuery;
import dev.harness4j.core.internal.process.Bubblewrap;
import dev.harness4j.core.process.RunMarker;
import dev.harness4j.core.queue.QueueEntry;
import dev.harness4j.core.queue.RunQueue;
import dev.harness4j.testkit.bench.ScriptedProvider;
import dev.harness4j.testkit.fake.FakeHarness;
import dev.harness4j.testkit.fake.FakeScript;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code kill -9} of a JVM that runs a queue through the real runner mid-run: the next start
 * finds every entry done exactly once, no process with a run marker left, no stale workspace.
 * Unconfined, the killed runs' trees survive the kill and recovery sweeps them; sandboxed, they
 * die with the JVM (bubblewrap's {@code --die-with-parent}) and recovery sweeps the rest.
 */
class QueueKillRecoveryTest {
    private static final List<String> MODELS = List.of("m0", "m1", "m2");

    @TempDir Path tmp;

    private Process child(Path state, boolean sandboxed) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-D" + QueueChildMain.SANDBOXED + "=" + sandboxed,
                "-cp", System.getProperty("java.class.path"), QueueChildMain.class.getName(), state.toString(), "2"));
        cmd.addAll(MODELS);
        return new ProcessBuilder(cmd).redirectErrorStream(true).start();
    }

    private static boolean isBwrap(ProcessHandle h) {
        return h.info().command().orElse("").endsWith("bwrap");
    }

    private static boolean running(String runId, boolean sandboxed) {
        List<ProcessHandle> marked = RunMarker.find(runId);
        return sandboxed ? marked.stream().anyMatch(QueueKillRecoveryTest::isBwrap) : !marked.isEmpty();
    }

    @ParameterizedTest(name = "sandboxed={0}")
    @ValueSource(booleans = {false, true})
    void afterKillMinus9TheNextStartFinishesEveryEntryOnceAndLeavesNothingRunning(boolean sandboxed) throws Exception {
        Assumptions.assumeTrue(!sandboxed || Bubblewrap.probe(Bubblewrap.DEFAULT_BWRAP, SandboxNetwork.METER_ONLY).isEmpty(),
                "bubblewrap works here");
        Path repo = dev.harness4j.examples.BenchMainTesting.gitRepo(tmp.resolve("repo"));
        Path state = tmp.resolve("state");
        RunQueue queue = RunQueue.builder().stateDir(state).build();
        List<RunSpec> specs = new ArrayList<>();
        for (String m : MODELS) {
            // 8 s of silence: long enough that an unsandboxed run still lives when the kill is checked, even under
            // the load of two CI runs at once (3 s was not: the run had finished, no survivor)
            specs.add(FakeScript.builder().print("working").silence(Duration.ofSeconds(8)).writeFile(m + ".txt", m + "\n")
                    .build().applyTo(RunSpec.builder(FakeHarness.ID, ScriptedProvider.NAME)).model(m)
                    .prompt("write a file").baseline(repo).build());
        }
        List<QueueEntry> entries = queue.enqueue(specs);

        Process first = child(state, sandboxed);
        List<String> killedRuns = new ArrayList<>();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(first.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while (killedRuns.size() < 2 && (line = out.readLine()) != null) {
                if (line.startsWith("started ")) {
                    killedRuns.add(line.split(" ")[2]);
                }
            }
            assertThat(killedRuns).hasSize(2);
            for (String runId : killedRuns) {
                // another JVM's child: nothing to wait on but /proc; a sandboxed run's first marked
                // process may still be on its way to exec bwrap, so wait for the bwrap one
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (!running(runId, sandboxed) && System.nanoTime() < deadline) {
                    Thread.sleep(20);
                }
                assertThat(RunMarker.find(runId)).as("the harness of " + runId + " runs").isNotEmpty();
                if (sandboxed) {
                    assertThat(RunMarker.find(runId)).as("sandboxed").anyMatch(QueueKillRecoveryTest::isBwrap);
                }
            }
            first.destroyForcibly(); // SIGKILL
            assertThat(first.waitFor(10, TimeUnit.SECONDS)).isTrue();
        }
        for (String runId : killedRuns) {
            if (sandboxed) { // the sandbox dies with its JVM: nothing to wait on but /proc
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while (!RunMarker.find(runId).isEmpty() && System.nanoTime() < deadline) {
                    Thread.sleep(20);
                }
                assertThat(RunMarker.find(runId)).as("left of the sandboxed " + runId + " after the kill").isEmpty();
            } else {
                assertThat(RunMarker.find(runId)).as("survivor of " + runId + " after the kill").isNotEmpty();
            }
            assertThat(state.resolve("runs").resolve(runId)).as("a stale workspace to sweep").exists();
        }

        Process second = child(state, sandboxed);
        assertThat(second.waitFor(120, TimeUnit.SECONDS)).isTrue();
        String out = new String(second.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(second.exitValue()).as(out).isZero();

        List<QueueEntry> after = queue.entries();
        assertThat(after).hasSize(3).allSatisfy(e -> assertThat(e.state()).as(e.id()).isEqualTo(QueueEntry.State.DONE));
        assertThat(after.stream().mapToInt(QueueEntry::attempts).sum()).as("two crashed attempts + three that finished").isEqualTo(5);
        ObjectMapper json = new ObjectMapper();
        for (QueueEntry e : after) {
            Path dir = ResultIndex.of(state).find(ResultQuery.all().harness(FakeHarness.ID).model(e.spec().model()))
                    .stream().filter(r -> r.runId().equals(e.runId())).findFirst().orElseThrow().dir();
            JsonNode meta = json.readTree(dir.resolve("meta.json").toFile());
            assertThat(meta.path("run_id").asText()).as("the result is the last attempt's").isEqualTo(e.runId());
            assertThat(meta.path("outcome").asText()).isEqualTo("completed");
            assertThat(meta.path("sandbox").path("mode").asText()).isEqualTo(sandboxed ? "bubblewrap" : "off");
            assertThat(Files.readString(dir.resolve("diff.patch"))).contains("+" + e.spec().model());
            assertThat(killedRuns).doesNotContain(e.runId());
        }
        for (String runId : killedRuns) {
            assertThat(RunMarker.find(runId)).as("survivor of " + runId + " after recovery").isEmpty();
        }
        try (var left = Files.list(state.resolve("runs"))) {
            assertThat(left).as("stale workspaces").isEmpty();
        }
        assertThat(entries).hasSize(3);
    }
}
