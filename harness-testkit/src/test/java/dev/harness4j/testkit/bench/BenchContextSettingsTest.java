package dev.harness4j.testkit.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.harness4j.api.ApiStyle;
import dev.harness4j.api.AuthScheme;
import dev.harness4j.api.ProviderResolver;
import dev.harness4j.api.ResolvedProvider;
import dev.harness4j.api.Secret;
import dev.harness4j.core.Installations;
import dev.harness4j.testkit.fake.FakeHarness;
import java.net.URI;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The extension's context takes custom installations (a CLI path) and providers before its runner is built. */
@ExtendWith(BenchExtension.class)
class BenchContextSettingsTest {
    @Test
    void aCliPathAndAnotherProviderReachTheRunner(BenchContext bench) {
        ProviderResolver own = new ProviderResolver() {
            @Override
            public Optional<ResolvedProvider> resolve(String provider, String model) {
                return "own".equals(provider) ? Optional.of(new ResolvedProvider("own", EnumSet.of(ApiStyle.OPENAI),
                        URI.create("http://127.0.0.1:9"), Secret.of("k"), AuthScheme.API_KEY, "own-model"))
                        : Optional.empty();
            }

            @Override
            public Set<String> providerNames() {
                return Set.of("own");
            }
        };
        bench.installations(Installations.builder().path(FakeHarness.ID, Path.of("/bin/sh")).noDefaultSearch().build())
                .providers(own);

        assertThat(bench.runner().installations().locate(new FakeHarness())).contains(Path.of("/bin/sh"));
        assertThat(bench.runner().resolveProvider("own", null).model()).isEqualTo("own-model");
        assertThatThrownBy(() -> bench.providers(own)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("before the first runner()");
    }
}
