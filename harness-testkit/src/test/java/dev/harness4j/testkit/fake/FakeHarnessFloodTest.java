package dev.harness4j.testkit.fake;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** 1 GiB of output from the fake harness through the runner, in a JVM with a 64 MiB heap. */
class FakeHarnessFloodTest {
    private static final long GIB = 1L << 30;

    @TempDir Path dir;

    @Test
    void aRunPrintingOneGibibyteCompletesWithA64MibHeap() throws Exception {
        Path log = dir.resolve("child.log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(List.of(java, "-Xmx64m", "-cp", System.getProperty("java.class.path"),
                        FakeFloodMain.class.getName(), dir.resolve("work").toString(), String.valueOf(GIB)))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            boolean ended = child.waitFor(10, TimeUnit.MINUTES);
            String out = Files.readString(log);
            assertThat(ended).as("child JVM ended within 10 minutes; output so far:%n%s", out).isTrue();
            assertThat(child.exitValue()).as("child JVM exit; its output:%n%s", out).isZero();
            System.out.print(out);
        } finally {
            child.destroyForcibly();
        }
    }
}
