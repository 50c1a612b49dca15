package dev.harness4j.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.harness4j.api.HarnessNotInstalledException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InstallationsTest {

    @Test
    void anUninstalledBinaryIsRefusedWithItsInstallHint() {
        Installations installs = Installations.defaults();

        assertThatThrownBy(() -> installs.require(new TestHarnesses.Beta()))
                .isInstanceOf(HarnessNotInstalledException.class)
                .hasMessageContaining("harness 'beta' is not installed")
                .hasMessageContaining("definitely-not-installed-binary-h4j")
                .hasMessageContaining("install it with: install definitely-not-installed-binary-h4j with: apt-get")
                .satisfies(e -> assertThat(((HarnessNotInstalledException) e).installHint())
                        .startsWith("install definitely-not-installed-binary-h4j"));
        assertThat(installs.check(new TestHarnesses.Beta()).installed()).isFalse();
    }

    @Test
    void findsABinaryOnPathAndProbesItsVersion() {
        Installation git = Installations.defaults().check(new TestHarnesses.Alpha());

        assertThat(git.installed()).isTrue();
        assertThat(git.version()).startsWith("git version ");
    }

    @Test
    void aConfiguredPathWinsAndMustBeExecutable(@TempDir Path dir) throws Exception {
        Path fake = dir.resolve("my-git");
        Files.writeString(fake, "#!/bin/sh\necho 'my-git 9.9'\n");
        Installations notYet = Installations.builder().path("alpha", fake).build();
        assertThatThrownBy(() -> notYet.require(new TestHarnesses.Alpha()))
                .hasMessageContaining("configured path " + fake + " is not an executable file");

        Files.setPosixFilePermissions(fake, PosixFilePermissions.fromString("rwxr-xr-x"));
        Installation found = Installations.builder().path("alpha", fake).build().check(new TestHarnesses.Alpha());
        assertThat(found.executable()).isEqualTo(fake);
        assertThat(found.version()).isEqualTo("my-git 9.9");
    }
}
