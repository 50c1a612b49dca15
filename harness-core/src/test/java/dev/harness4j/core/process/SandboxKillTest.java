package dev.harness4j.core.process;

import dev.harness4j.core.internal.process.Bubblewrap;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.SandboxNetwork;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JVM killed with {@code -9} (no shutdown hook) while a sandboxed run's stubborn tree runs:
 * bubblewrap's {@code --die-with-parent} takes the whole sandbox down with it, marker and all.
 */
class SandboxKillTest {
    @TempDir Path dir;

    @Test
    void aSandboxedTreeDiesWithAJvmKilledWithSignal9() throws Exception {
        Assumptions.assumeTrue(Bubblewrap.probe(Bubblewrap.DEFAULT_BWRAP, SandboxNetwork.METER_ONLY).isEmpty(),
                "bubblewrap works here");
        String runId = Runs.newRunId();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process jvm = new ProcessBuilder(List.of(java, "-Xmx64m", "-cp", System.getProperty("java.class.path"),
                        ShutdownHookMain.class.getName(), runId, dir.toString(), "sandbox"))
                .redirectError(dir.resolve("jvm-stderr.log").toFile()).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(jvm.getInputStream(), StandardCharsets.UTF_8))) {
            assertThat(out.readLine()).isEqualTo("ready");
            // "ready" is echoed right after the background sleep is forked: its exec may still be under way
            long seen = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            List<String> commands = commands(runId);
            while (commands.stream().noneMatch(c -> c.endsWith("sleep")) && System.nanoTime() < seen) {
                Thread.sleep(50);
                commands = commands(runId);
            }
            assertThat(commands).as("the sandboxed tree carries the marker").hasSizeGreaterThanOrEqualTo(4)
                    .anyMatch(c -> c.endsWith("bwrap")).anyMatch(c -> c.endsWith("sleep"));

            jvm.destroyForcibly(); // SIGKILL: no shutdown hook runs

            assertThat(jvm.waitFor(30, TimeUnit.SECONDS)).isTrue();
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (!RunMarker.find(runId).isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertThat(RunMarker.find(runId)).as("left with the marker after the JVM was killed").isEmpty();
        } finally {
            jvm.destroyForcibly();
            RunMarker.killAll(runId, Duration.ZERO);
        }
    }

    private static List<String> commands(String runId) {
        return RunMarker.find(runId).stream().map(h -> h.info().command().orElse("?")).toList();
    }
}
