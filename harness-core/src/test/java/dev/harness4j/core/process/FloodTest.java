package dev.harness4j.core.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** 1 GiB of output goes through the supervisor in a JVM whose heap is capped at 64 MiB. */
class FloodTest {
    private static final long GIB = 1L << 30;

    @TempDir Path dir;

    @Test
    void drainsOneGibibyteOfOutputWithA64MibHeap() throws Exception {
        Path log = dir.resolve("child.log");
        Path work = Files.createDirectories(dir.resolve("run"));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(List.of(java, "-Xmx64m", "-cp", System.getProperty("java.class.path"),
                        FloodMain.class.getName(), work.toString(), String.valueOf(GIB)))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            boolean ended = child.waitFor(5, TimeUnit.MINUTES);
            String out = Files.readString(log);
            assertThat(ended).as("child JVM ended within 5 minutes; output so far:%n%s", out).isTrue();
            assertThat(child.exitValue()).as("child JVM exit; its output:%n%s", out).isZero();
            assertThat(out).contains("flood: " + GIB + " bytes");
            System.out.print(out);
        } finally {
            child.destroyForcibly();
        }
    }
}
