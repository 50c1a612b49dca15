package dev.harness4j.codex;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.CompletionMode;
import dev.harness4j.api.Harness;
import dev.harness4j.core.HarnessRegistry;
import org.junit.jupiter.api.Test;

/** The adapter is found on the plain classpath through {@code META-INF/services}. */
class CodexRegistrationTest {

    @Test
    void serviceLoaderFindsTheOpaqueCodexAdapterWithItsPinnedInstallHint() {
        Harness h = HarnessRegistry.fromServices().require(CodexHarness.ID);

        assertThat(h).isInstanceOf(CodexHarness.class);
        assertThat(h.completionMode()).isEqualTo(CompletionMode.OPAQUE);
        assertThat(h.installInfo().binary()).isEqualTo("codex");
        assertThat(h.installInfo().installHint()).isEqualTo("npm i -g @openai/codex@0.169.0");
    }
}
