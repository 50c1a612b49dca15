package dev.harness4j.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The distribution {@code mvn package} builds ({@code target/harness4j-<version>/}, failsafe's
 * {@code harness4j.dist}), run as a user runs it: its launcher in a child process.
 */
class DistributionIT {
    private static final Path DIST = Path.of(System.getProperty("harness4j.dist", "target/harness4j-dist-not-built"));
    /** The ten agent adapters, the seven ACP agents and harness-bench's two reference harnesses (nop, oracle). */
    private static final List<String> BUNDLED = List.of("aider", "claude-code", "codex", "gemini", "mini-swe-agent",
            "opencode", "qwen-code", "copilot", "cline", "continue", "acp:gemini", "acp:opencode", "acp:qwen-code",
            "acp:claude-code", "acp:codex", "acp:kilo", "acp:mistral-vibe", "nop", "oracle");

    /** Runs the launcher (through a symlink, as an installed one is); stdout, stderr and the exit code. */
    private static String[] harness4j(String... args) throws Exception {
        Path link = Files.createTempDirectory("harness4j-bin-").resolve("harness4j");
        Files.createSymbolicLink(link, DIST.resolve("bin/harness4j").toAbsolutePath());
        List<String> cmd = new ArrayList<>(List.of(link.toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .start();
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
        String out = read(p.getInputStream());
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("harness4j " + String.join(" ", args) + " ended").isTrue();
        Files.delete(link);
        Files.delete(link.getParent());
        return new String[] {out, err.get(), Integer.toString(p.exitValue())};
    }

    private static String read(java.io.InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void harnessesListPrintsTheSevenBundledHarnessesAndNothingElseWithNoWarning() throws Exception {
        String[] r = harness4j("harnesses", "list");
        assertThat(r[2]).as(r[1]).isEqualTo("0");
        assertThat(r[0].lines().toList()).containsExactlyInAnyOrderElementsOf(BUNDLED);
        assertThat(r[1]).as("stderr").isEmpty();
        String[] v = harness4j("--version");
        assertThat(v[0]).startsWith("harness4j ");
        assertThat(v[1]).isEmpty();
    }

    @Test
    void libHoldsTheRuntimeJarsAndNoTestJar() throws Exception {
        List<String> jars;
        try (Stream<Path> lib = Files.list(DIST.resolve("lib"))) {
            jars = lib.map(p -> p.getFileName().toString()).sorted().toList();
        }
        for (String module : List.of("api", "core", "meter", "jobs", "bench", "postgres", "cli", "claude", "opencode", "aider",
                "codex", "gemini", "qwen", "mini-swe-agent")) {
            assertThat(jars).as(module).anyMatch(j -> j.matches("harness-" + module + "-\\d.*\\.jar"));
        }
        assertThat(jars).anyMatch(j -> j.startsWith("slf4j-simple-"));
        assertThat(jars).allMatch(j -> j.endsWith(".jar"))
                .noneMatch(j -> j.contains("-tests") || j.contains("testkit") || j.startsWith("junit")
                        || j.startsWith("assertj") || j.startsWith("opentest4j") || j.startsWith("byte-buddy")
                        || j.startsWith("harness-otel"));
        assertThat(DIST.resolve("bin/harness4j")).isExecutable();
        Path tar = DIST.resolveSibling(DIST.getFileName() + ".tar.gz");
        Process p = new ProcessBuilder("tar", "tzvf", tar.toString()).redirectErrorStream(true).start();
        String listing = read(p.getInputStream());
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(listing).containsPattern("-rwxr-xr-x .* " + DIST.getFileName() + "/bin/harness4j")
                .contains(DIST.getFileName() + "/lib/harness-cli-").doesNotContain("-tests.jar");
    }
}
