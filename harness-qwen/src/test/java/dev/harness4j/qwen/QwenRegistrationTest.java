package dev.harness4j.qwen;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.CompletionMode;
import dev.harness4j.api.Harness;
import dev.harness4j.core.HarnessRegistry;
import org.junit.jupiter.api.Test;

/** The adapter is found on the plain classpath through {@code META-INF/services}. */
class QwenRegistrationTest {

    @Test
    void serviceLoaderFindsTheOpaqueQwenAdapterWithItsPinnedInstallHintAndItsRateLimitStop() {
        Harness h = HarnessRegistry.fromServices().require(QwenHarness.ID);

        assertThat(h).isInstanceOf(QwenHarness.class);
        assertThat(h.completionMode()).isEqualTo(CompletionMode.OPAQUE);
        assertThat(h.installInfo().binary()).isEqualTo("qwen");
        assertThat(h.id()).isEqualTo("qwen-code");
        assertThat(h.stopAfterRateLimits()).isEqualTo(4);
        assertThat(h.installInfo().installHint()).startsWith("npm i -g @qwen-code/qwen-code@0.24.4 ");
    }
}
