package dev.harness4j.continuedev;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.CompletionMode;
import dev.harness4j.api.Harness;
import dev.harness4j.core.HarnessRegistry;
import org.junit.jupiter.api.Test;

/** The adapter is found on the plain classpath through {@code META-INF/services}. */
class ContinueRegistrationTest {

    @Test
    void serviceLoaderFindsTheOpaqueContinueAdapterWithItsPinnedInstallHint() {
        Harness h = HarnessRegistry.fromServices().require(ContinueHarness.ID);

        assertThat(h).isInstanceOf(ContinueHarness.class);
        assertThat(h.completionMode()).isEqualTo(CompletionMode.OPAQUE);
        assertThat(h.supportsMcp()).as("mcpServers in its per-run config.yaml").isTrue();
        assertThat(h.supportsFollowUp()).as("--resume takes no session id: declared unsupported up front").isFalse();
        assertThat(h.installInfo().binary()).isEqualTo("cn");
        assertThat(h.installInfo().installHint()).startsWith("npm i -g @continuedev/cli@1.5.47");
    }
}
