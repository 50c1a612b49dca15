package dev.harness4j.core.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A JVM that is told to terminate stops its runs' process trees through the shutdown hook. */
class ShutdownHookTest {
    @TempDir Path dir;

    @Test
    void theShutdownHookStopsTheRunsOfATerminatedJvm() throws Exception {
        String runId = Runs.newRunId();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process jvm = new ProcessBuilder(List.of(java, "-Xmx64m", "-cp", System.getProperty("java.class.path"),
                        ShutdownHookMain.class.getName(), runId, dir.toString()))
                .redirectError(dir.resolve("jvm-stderr.log").toFile()).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(jvm.getInputStream(), StandardCharsets.UTF_8))) {
            assertThat(out.readLine()).isEqualTo("ready");
            assertThat(RunMarker.find(runId)).hasSizeGreaterThanOrEqualTo(3);

            jvm.destroy(); // SIGTERM: the JVM runs its shutdown hooks

            assertThat(jvm.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(RunMarker.find(runId)).isEmpty();
        } finally {
            jvm.destroyForcibly();
            RunMarker.killAll(runId, Duration.ZERO);
        }
    }
}
