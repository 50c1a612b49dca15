package dev.harness4j.core.internal.process;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.core.queue.Owner;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A relay dir left by a JVM killed with {@code -9} is swept by the next runner at once, by its owner record. */
class MeterRelayKillTest {
    @TempDir Path tmp;

    private final List<Process> jvms = new ArrayList<>();

    @AfterEach
    void killJvms() {
        jvms.forEach(Process::destroyForcibly);
    }

    /** Starts a JVM that starts a relay in {@link #tmp}; returns the relay's dir once it is up. */
    private Path relayInAnotherJvm() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process jvm = new ProcessBuilder(List.of(java, "-Xmx64m", "-Djava.io.tmpdir=" + tmp, "-cp",
                        System.getProperty("java.class.path"), MeterRelayMain.class.getName()))
                .redirectError(tmp.resolve("jvm-" + jvms.size() + ".log").toFile()).start();
        jvms.add(jvm);
        BufferedReader out = new BufferedReader(new InputStreamReader(jvm.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        assertThat(line).as("the JVM's first line (stderr in %s)", tmp).startsWith("relay ");
        return Path.of(line.substring("relay ".length())).getParent();
    }

    private static void kill9(Process jvm) throws InterruptedException {
        jvm.destroyForcibly(); // SIGKILL: no shutdown hook, no close()
        assertThat(jvm.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void aRestartedRunnerSweepsTheRelayOfAKilledJvmAtOnce() throws Exception {
        Path left = relayInAnotherJvm();
        assertThat(left.resolve("owner")).exists();
        assertThat(left.resolve("meter.sock")).exists();

        kill9(jvms.get(0));
        assertThat(left).as("kill -9 leaves the relay dir").exists();

        Path next = relayInAnotherJvm(); // a runner started seconds later, well within the age rule's minute

        assertThat(left).as("the dead owner's relay dir, swept by the next relay's start").doesNotExist();
        assertThat(next.resolve("meter.sock")).exists();
        kill9(jvms.get(1));
        assertThat(MeterRelay.sweepStale(tmp, Duration.ofHours(1))).isEqualTo(1);
        assertThat(next).doesNotExist();
    }

    @Test
    void aLiveOwnersDirIsKeptAndAReusedPidIsNoOwner() throws Exception {
        Owner self = Owner.current();
        Path live = Files.createDirectory(tmp.resolve("h4j-relay-live"));
        MeterRelay.writeOwner(live, self); // no socket listening: only the owner record keeps it
        Path reused = Files.createDirectory(tmp.resolve("h4j-relay-reused"));
        MeterRelay.writeOwner(reused, new Owner(self.pid(), self.startTicks() == null ? null : self.startTicks() + 1,
                self.startedAt() == null ? null : self.startedAt().minus(Duration.ofHours(1)), self.host()));
        Path unreadable = Files.createDirectory(tmp.resolve("h4j-relay-garbled"));
        Files.writeString(unreadable.resolve("owner"), "pid=not a number\n");

        int removed = MeterRelay.sweepStale(tmp, Duration.ofMinutes(1));

        assertThat(removed).isEqualTo(1);
        assertThat(live.resolve("owner")).exists();
        assertThat(reused).as("the pid now belongs to a process that started at another time").doesNotExist();
        assertThat(unreadable.resolve("owner")).as("no readable owner, younger than a minute: the age rule keeps it")
                .exists();
        assertThat(MeterRelay.readOwner(live)).isEqualTo(self);
    }
}
