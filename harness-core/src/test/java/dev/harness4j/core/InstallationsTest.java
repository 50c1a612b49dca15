package dev.harness4j.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.harness4j.api.HarnessNotInstalledException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
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

    @Test
    void theVersionProbeRunsInAThrowawayHomeThatIsGoneAfterwards(@TempDir Path dir) throws Exception {
        Path home = Files.createDirectories(dir.resolve("home"));
        Path seen = dir.resolve("seen.txt");
        Path fake = dir.resolve("writes-home");
        // like Gemini CLI 0.61.0: writes its state below HOME even when asked only its version
        Files.writeString(fake, "#!/bin/sh\nmkdir -p \"$HOME/.state\" \"$XDG_CONFIG_HOME/tool\" && touch \"$HOME/.state/x\""
                + " \"$XDG_CONFIG_HOME/tool/y\" \"$TMPDIR/z\"\nprintf '%s\\n%s\\n%s\\n%s\\n' \"$HOME\" \"$XDG_CONFIG_HOME\" \"$TMPDIR\""
                + " \"$KEPT\" > '" + seen + "'\necho 'writes-home 1.0'\n");
        Files.setPosixFilePermissions(fake, PosixFilePermissions.fromString("rwxr-xr-x"));
        Map<String, String> env = Map.of("PATH", System.getenv("PATH"), "HOME", home.toString(),
                "XDG_CONFIG_HOME", home.resolve(".config").toString(), "TMPDIR", dir.toString(), "KEPT", "kept");

        Installation found = Installations.builder().path("alpha", fake).environment(env).build()
                .check(new TestHarnesses.Alpha());

        assertThat(found.version()).isEqualTo("writes-home 1.0");
        assertThat(home).isEmptyDirectory();
        List<String> lines = Files.readAllLines(seen);
        assertThat(lines.get(3)).as("other variables are kept").isEqualTo("kept");
        for (String probeDir : lines.subList(0, 3)) {
            assertThat(probeDir).doesNotStartWith(home.toString()).doesNotStartWith(dir.toString());
            assertThat(Path.of(probeDir)).as("the throwaway home is deleted").doesNotExist();
        }
        assertThat(Path.of(lines.get(0)).getParent()).doesNotExist();
    }
}
