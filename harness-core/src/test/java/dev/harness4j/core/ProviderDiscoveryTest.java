package dev.harness4j.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.harness4j.api.ProviderNotResolvableException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A resolver jar on the class path adds its providers to every runner, after the ones given in
 * code. The "jar" is a directory with the services file, on a class loader of the test's own (so
 * other tests never see the provider).
 */
class ProviderDiscoveryTest {
    @TempDir Path tmp;

    private <T> T withResolverJar(Supplier<T> body) throws Exception {
        Path jar = Files.createDirectories(tmp.resolve("jar/META-INF/services"));
        Files.writeString(jar.resolve("dev.harness4j.api.ProviderResolver"), ServiceLoadedResolver.class.getName() + "\n");
        Thread t = Thread.currentThread();
        ClassLoader before = t.getContextClassLoader();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {tmp.resolve("jar").toUri().toURL()},
                ProviderDiscoveryTest.class.getClassLoader())) {
            t.setContextClassLoader(loader);
            return body.get();
        } finally {
            t.setContextClassLoader(before);
        }
    }

    @Test
    void aRegisteredResolverIsAskedAfterTheGivenOnes() throws Exception {
        String model = withResolverJar(() -> {
            try (HarnessRunner r = HarnessRunner.builder().stateDir(tmp.resolve("state"))
                    .providers(ShellHarness.provider()).build()) {
                assertThat(r.resolveProvider("local", null).name()).isEqualTo("local");
                return r.resolveProvider(ServiceLoadedResolver.NAME, null).model();
            }
        });
        assertThat(model).isEqualTo("loaded-model");
    }

    @Test
    void withoutDiscoveryItIsUnknownAndTheErrorListsOnlyTheGivenOnes() throws Exception {
        withResolverJar(() -> {
            try (HarnessRunner r = HarnessRunner.builder().stateDir(tmp.resolve("state"))
                    .providers(ShellHarness.provider()).discoverProviders(false).build()) {
                assertThatThrownBy(() -> r.resolveProvider(ServiceLoadedResolver.NAME, null))
                        .isInstanceOf(ProviderNotResolvableException.class)
                        .hasMessageContaining("known providers: [local]");
            }
            return null;
        });
    }
}
