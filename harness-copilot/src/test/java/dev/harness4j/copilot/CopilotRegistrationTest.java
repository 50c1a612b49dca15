package dev.harness4j.copilot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.CompletionMode;
import dev.harness4j.api.Harness;
import dev.harness4j.core.HarnessRegistry;
import org.junit.jupiter.api.Test;

/** The adapter is found on the plain classpath through {@code META-INF/services}. */
class CopilotRegistrationTest {

    @Test
    void serviceLoaderFindsTheOpaqueCopilotAdapterWithItsPinnedInstallHint() {
        Harness h = HarnessRegistry.fromServices().require(CopilotHarness.ID);

        assertThat(h).isInstanceOf(CopilotHarness.class);
        assertThat(h.completionMode()).isEqualTo(CompletionMode.OPAQUE);
        assertThat(h.installInfo().binary()).isEqualTo("copilot");
        assertThat(h.id()).isEqualTo("copilot");
        assertThat(h.supportsMcp()).isTrue();
        assertThat(h.installInfo().installHint()).startsWith("npm i -g @github/copilot@1.0.102 ");
    }
}
