package dev.harness4j.core;

import static dev.harness4j.core.GitFixture.git;
import static dev.harness4j.core.GitFixture.repo;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.api.RunSpec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The run engine's defences: secrets in remotes, isolation from the baseline's refs, bad run ids, errors. */
class HarnessRunnerSafetyTest {
    @TempDir Path tmp;

    private Path base;
    private HarnessRunner runner;

    @BeforeEach
    void setUp() {
        base = repo(tmp.resolve("base"));
        runner = HarnessRunner.builder().stateDir(tmp.resolve("state"))
                .registry(HarnessRegistry.builder().add(new ShellHarness()).build())
                .providers(ShellHarness.provider())
                .build();
    }

    @AfterEach
    void tearDown() {
        runner.close();
    }

    private RunSpec.Builder spec(String script) {
        return RunSpec.builder(ShellHarness.ID, "local").model("m1").prompt("do it").baseline(base)
                .option("script", script);
    }

    private static JsonNode meta(RunRecord r) throws Exception {
        return new ObjectMapper().readTree(r.metaFile().toFile());
    }

    private static String allResultText(Path dir) throws Exception {
        StringBuilder sb = new StringBuilder();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                sb.append(new String(Files.readAllBytes(f), StandardCharsets.UTF_8));
            }
        }
        return sb.toString();
    }

    @Test
    void aTokenInTheBaselinesRemoteUrlReachesNoResultFile() throws Exception {
        git(base, "remote", "add", "origin", "https://x-access-token:ghs_RunT0ken77@127.0.0.1:1/o/r.git");
        RunRecord r = runner.run(spec("echo token is ghs_RunT0ken77; echo w > w.txt").build());
        assertThat(r.branch().pushed()).isFalse();
        assertThat(meta(r).at("/branch/error").asText()).contains("https://127.0.0.1:1/o/r.git");
        assertThat(allResultText(tmp.resolve("state/results"))).doesNotContain("ghs_RunT0ken77").contains("token is ***");
    }
}
