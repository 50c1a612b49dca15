package dev.harness4j.aider;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.api.CompletionMode;
import dev.harness4j.api.Harness;
import dev.harness4j.core.HarnessRegistry;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

class AiderHarnessTest {

    @Test
    void isFoundByServiceLoaderAsTheOpaqueAiderHarness() {
        assertThat(ServiceLoader.load(Harness.class).stream().map(ServiceLoader.Provider::type))
                .contains(AiderHarness.class);
        Harness h = HarnessRegistry.fromServices().require("aider");

        assertThat(h).isInstanceOf(AiderHarness.class);
        assertThat(h.completionMode()).isEqualTo(CompletionMode.OPAQUE);
    }

    @Test
    void namesItsBinaryVersionProbeAndPinnedInstallCommand() {
        var info = new AiderHarness().installInfo();

        assertThat(info.binary()).isEqualTo("aider");
        assertThat(info.versionArgs()).containsExactly("--version");
        assertThat(info.installHint()).isEqualTo("pip install aider-chat==0.86.2");
    }
}
