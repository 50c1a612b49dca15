package dev.harness4j.miniswe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.CompletionMode;
import dev.harness4j.api.Harness;
import dev.harness4j.core.HarnessRegistry;
import org.junit.jupiter.api.Test;

/** The adapter is found on the plain classpath through {@code META-INF/services}. */
class MiniSweAgentRegistrationTest {

    @Test
    void serviceLoaderFindsTheOpaqueMiniSweAgentAdapterWithItsPinnedInstallHint() {
        Harness h = HarnessRegistry.fromServices().require(MiniSweAgentHarness.ID);

        assertThat(h).isInstanceOf(MiniSweAgentHarness.class);
        assertThat(h.completionMode()).isEqualTo(CompletionMode.OPAQUE);
        assertThat(h.installInfo().binary()).isEqualTo("mini-swe-agent");
        assertThat(h.installInfo().installHint()).contains("mini-swe-agent==2.4.6");
    }
}
