package dev.harness4j.cline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.CompletionMode;
import dev.harness4j.api.Harness;
import dev.harness4j.core.HarnessRegistry;
import org.junit.jupiter.api.Test;

/** The adapter is found on the plain classpath through {@code META-INF/services}. */
class ClineRegistrationTest {

    @Test
    void serviceLoaderFindsTheOpaqueClineAdapterWithItsPinnedInstallHint() {
        Harness h = HarnessRegistry.fromServices().require(ClineHarness.ID);

        assertThat(h).isInstanceOf(ClineHarness.class);
        assertThat(h.completionMode()).isEqualTo(CompletionMode.OPAQUE);
        assertThat(h.supportsMcp()).as("mcpServers in its per-run cline_mcp_settings.json").isTrue();
        assertThat(h.supportsFollowUp()).as("--id is refused with --json: declared unsupported up front").isFalse();
        assertThat(h.installInfo().binary()).isEqualTo("cline");
        assertThat(h.installInfo().installHint()).startsWith("npm i -g cline@3.0.65");
    }
}
