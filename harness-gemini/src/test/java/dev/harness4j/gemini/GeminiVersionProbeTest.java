package dev.harness4j.gemini;

import static org.assertj.core.api.Assertions.assertThat;

import dev.harness4j.core.Installation;
import dev.harness4j.core.Installations;
import dev.harness4j.testkit.Clis;
import dev.harness4j.testkit.RealCli;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Core's version probe of the real, unwrapped {@code gemini} (not the install script's wrapper,
 * which answers {@code --version} without the CLI) leaves HOME as it was, although the CLI itself
 * writes {@code ~/.gemini} even for {@code --version}.
 */
@RealCli
class GeminiVersionProbeTest {

    @Test
    void coresVersionProbeOfTheRealCliLeavesAFakeHomeUnchanged(@TempDir Path dir) throws Exception {
        Path gemini = unwrapped();
        Path home = fakeHome(dir.resolve("home"));
        Map<String, String> before = snapshot(home);
        Map<String, String> env = Map.of("PATH", System.getenv("PATH"), "HOME", home.toString());

        Installation found = Installations.builder().path("gemini", gemini).environment(env).build()
                .check(new GeminiHarness());

        assertThat(found.version()).isEqualTo("0.61.0");
        assertThat(snapshot(home)).as("the fake HOME after core's version probe").isEqualTo(before);
    }

    @Test
    void withoutCoreTheSameCommandWritesHome(@TempDir Path dir) throws Exception {
        // the control: proves the test above could fail
        Path gemini = unwrapped();
        Path home = fakeHome(dir.resolve("home"));
        Map<String, String> before = snapshot(home);
        ProcessBuilder pb = new ProcessBuilder(gemini.toString(), "--version")
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectErrorStream(true).redirectOutput(dir.resolve("out.txt").toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("GEMINI_") || k.startsWith("XDG_"));
        pb.environment().put("HOME", home.toString());
        Process p = pb.start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("gemini --version finished").isTrue();

        assertThat(Files.readString(dir.resolve("out.txt")).strip()).isEqualTo("0.61.0");
        assertThat(snapshot(home)).as("gemini --version run directly with this HOME").isNotEqualTo(before);
    }

    /** {@code $TOOLS/gemini-npm/node_modules/.bin/gemini}, where install-clis.sh puts the real CLI. */
    private static Path unwrapped() {
        Path wrapper = Clis.require(new GeminiHarness());
        Path real = wrapper.getParent().getParent().resolve("gemini-npm/node_modules/.bin/gemini");
        Assumptions.assumeTrue(Files.isExecutable(real), "the unwrapped gemini is not at " + real
                + " (found " + wrapper + "); run: bash scripts/install-clis.sh");
        return real;
    }

    private static Path fakeHome(Path home) throws IOException {
        Files.createDirectories(home.resolve(".gemini"));
        Files.writeString(home.resolve(".gemini/settings.json"), "{}\n");
        Files.createDirectories(home.resolve(".npm"));
        Files.writeString(home.resolve(".npm/marker"), "npm\n");
        Files.createDirectories(home.resolve(".cache"));
        Files.writeString(home.resolve(".cache/marker"), "cache\n");
        return home;
    }

    /** Every path below {@code dir} with its file's content (empty for a directory). */
    private static Map<String, String> snapshot(Path dir) {
        try (Stream<Path> walk = Files.walk(dir)) {
            Map<String, String> out = new TreeMap<>();
            for (Path p : walk.toList()) {
                out.put(dir.relativize(p).toString(), Files.isRegularFile(p) ? Files.readString(p) : "");
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
