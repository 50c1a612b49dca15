package dev.harness4j.gemini;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.CompletionMode;
import dev.harness4j.api.Harness;
import dev.harness4j.core.HarnessRegistry;
import org.junit.jupiter.api.Test;

/** The adapter is found on the plain classpath through {@code META-INF/services}. */
class GeminiRegistrationTest {

    @Test
    void serviceLoaderFindsTheOpaqueGeminiAdapterWithItsPinnedInstallHint() {
        Harness h = HarnessRegistry.fromServices().require(GeminiHarness.ID);

        assertThat(h).isInstanceOf(GeminiHarness.class);
        assertThat(h.completionMode()).isEqualTo(CompletionMode.OPAQUE);
        assertThat(h.installInfo().binary()).isEqualTo("gemini");
        assertThat(h.installInfo().installHint()).startsWith("npm i -g @google/gemini-cli@0.61.0");
    }
}
