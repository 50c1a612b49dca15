package dev.harness4j.core;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.harness4j.core.provider.Providers;
import dev.harness4j.core.queue.FileQueueStore;
import dev.harness4j.core.queue.RetryPolicy;
import dev.harness4j.core.queue.RunQueue;
import dev.harness4j.core.internal.workspace.Workspaces;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every duration a builder takes is refused when zero, negative or null, with the setting named. */
class BuilderDurationsTest {

    @Test
    void zeroNegativeAndNullDurationsAreRefusedNamingTheSetting(@TempDir Path dir) {
        refused("termGrace", d -> HarnessRunner.builder().termGrace(d));
        refused("pushTimeout", d -> HarnessRunner.builder().pushTimeout(d));
        refused("loginTimeout", d -> HarnessRunner.builder().loginTimeout(d));
        refused("probeTimeout", d -> Providers.builder().probeTimeout(d));
        refused("healthTimeout", d -> Providers.builder().healthTimeout(d));
        refused("versionTimeout", d -> Installations.builder().versionTimeout(d));
        refused("gitTimeout", d -> RunQueue.builder().gitTimeout(d));
        refused("gitTimeout", d -> Workspaces.builder().gitTimeout(d));
        refused("lockTimeout", d -> new FileQueueStore(dir, d));
        refused("rateLimitWait", d -> RetryPolicy.DEFAULT.withRateLimitWait(d));
    }

    private interface Setter {
        void set(Duration d) throws Throwable;
    }

    private static void refused(String name, Setter setter) {
        for (Duration bad : new Duration[] {Duration.ZERO, Duration.ofMillis(-1)}) {
            assertThatThrownBy(() -> setter.set(bad)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage(name + " must be positive, was " + bad);
        }
        assertThatThrownBy(() -> setter.set(null)).isInstanceOf(NullPointerException.class).hasMessage(name);
    }
}
