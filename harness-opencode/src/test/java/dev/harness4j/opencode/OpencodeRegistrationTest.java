package dev.harness4j.opencode;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.CompletionMode;
import dev.harness4j.api.Harness;
import dev.harness4j.core.HarnessRegistry;
import org.junit.jupiter.api.Test;

/** The adapter is found on the plain classpath through {@code META-INF/services}. */
class OpencodeRegistrationTest {

    @Test
    void serviceLoaderFindsTheOpaqueOpencodeAdapterWithItsPinnedInstallHint() {
        Harness h = HarnessRegistry.fromServices().require(OpencodeHarness.ID);

        assertThat(h).isInstanceOf(OpencodeHarness.class);
        assertThat(h.completionMode()).isEqualTo(CompletionMode.OPAQUE);
        assertThat(h.installInfo().binary()).isEqualTo("opencode");
        assertThat(h.installInfo().installHint()).isEqualTo("npm i -g opencode-ai@1.18.33");
    }
}
