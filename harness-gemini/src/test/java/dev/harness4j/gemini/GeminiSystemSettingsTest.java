package dev.harness4j.gemini;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GeminiSystemSettingsTest {
    @TempDir
    Path tmp;

    @Test
    void aFileBelowAGroupOrWorldWritableDirectoryIsSkippedWithTheDirectoryNamed() throws Exception {
        Path open = Files.createDirectories(tmp.resolve("open"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));

        assertThat(GeminiSystemSettings.skipReason(open.resolve("gemini/system-settings.json")))
                .hasValueSatisfying(why -> assertThat(why).contains("'" + open + "'"));
    }

    @Test
    void theRootDirectoryAloneIsAcceptedOnlyWhenRootOwnsIt() throws Exception {
        boolean rootOwned = Integer.valueOf(0).equals(Files.getAttribute(Path.of("/"), "unix:uid"));

        assertThat(GeminiSystemSettings.skipReason(Path.of("/system-settings.json")).isEmpty()).isEqualTo(rootOwned);
    }
}
