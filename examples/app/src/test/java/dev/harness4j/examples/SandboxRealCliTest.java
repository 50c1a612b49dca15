package dev.harness4j.examples;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.harness4j.aider.AiderHarness;
import dev.harness4j.api.Limits;
import dev.harness4j.api.RunSpec;
import dev.harness4j.claude.ClaudeCodeHarness;
import dev.harness4j.core.HarnessRunner;
import dev.harness4j.core.RunRecord;
import dev.harness4j.core.process.RunMarker;
import dev.harness4j.core.process.Sandbox;
import dev.harness4j.opencode.OpencodeHarness;
import dev.harness4j.testkit.Clis;
import dev.harness4j.testkit.RealCli;
import dev.harness4j.testkit.bench.ScriptedProvider;
import dev.harness4j.testkit.model.Scenario;
import dev.harness4j.testkit.model.ScriptedModelServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The real CLIs under {@link Sandbox#REQUIRED}: each completes the scripted task through the
 * relay and the meter, with the same metered tokens as unconfined ({@link Sandbox#OFF}), and
 * {@code meta.json} says it ran in bubblewrap with only the meter on its network.
 */
@RealCli
class SandboxRealCliTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Limits LIMITS = Limits.NONE.withMaxRuntime(Duration.ofMinutes(3));

    private static ScriptedModelServer server;

    @TempDir Path tmp;

    @BeforeAll
    static void startServer() {
        Clis.require(new ClaudeCodeHarness());
        Clis.require(new OpencodeHarness());
        Clis.require(new AiderHarness());
        server = ScriptedModelServer.start().requireKey(ScriptedProvider.KEY);
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    private JsonNode run(Sandbox sandbox, String harness, String model) throws Exception {
        server.script(model, Scenario.builder()
                .writeFile("hello.txt", "hello\n").usage(1234, 56, 200, 100)
                .say("Wrote hello.txt.").usage(1300, 25, 0, 0).build());
        Path dir = tmp.resolve(sandbox.name());
        Path baseline = Files.isDirectory(dir.resolve("baseline")) ? dir.resolve("baseline")
                : BenchMain.sampleRepo(dir.resolve("baseline"));
        try (HarnessRunner runner = HarnessRunner.builder().stateDir(dir.resolve("state")).sandbox(sandbox)
                .providers(new ScriptedProvider(server)).build()) {
            RunSpec.Builder spec = RunSpec.builder(harness, ScriptedProvider.NAME).model(model)
                    .prompt("Do the scripted task.").baseline(baseline).limits(LIMITS)
                    .option(ClaudeCodeHarness.OPTION_MAX_RETRIES, "0");
            if (harness.equals(AiderHarness.ID)) {
                spec.option("stream", "false"); // unstreamed, aider's requests report their usage
            }
            long t0 = System.nanoTime();
            RunRecord r = runner.run(spec.build());
            System.out.printf("%s %s: %d ms%n", harness, sandbox, (System.nanoTime() - t0) / 1_000_000);
            assertThat(RunMarker.find(r.runId())).as("processes left with run %s's marker", r.runId()).isEmpty();
            assertThat(r.changes().files()).as(r.resultDir().toString()).contains("hello.txt");
            return JSON.readTree(Files.readString(r.metaFile()));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"claude-code", "opencode", "aider"})
    void completesTheScriptedTaskConfinedThroughTheRelayWithTheTokensItHasUnconfined(String harness) throws Exception {
        JsonNode free = run(Sandbox.OFF, harness, "sandbox-off-" + harness);
        JsonNode confined = run(Sandbox.REQUIRED, harness, "sandbox-on-" + harness);

        assertThat(free.path("sandbox").path("mode").asText()).isEqualTo("off");
        assertThat(confined.path("outcome").asText()).as(confined.toPrettyString()).isEqualTo("completed");
        assertThat(confined.path("sandbox").path("mode").asText()).as(confined.path("sandbox").toString())
                .isEqualTo("bubblewrap");
        assertThat(confined.path("sandbox").path("network").asText()).isEqualTo("meter-only");
        assertThat(confined.path("tokens").path("source").asText()).isEqualTo("metered");
        assertThat(confined.path("tokens").path("input").asLong()).isPositive();
        for (String f : new String[] {"input", "output", "cache_read", "cache_write"}) {
            assertThat(confined.path("tokens").path(f)).as(f).isEqualTo(free.path("tokens").path(f));
        }
        assertThat(confined.path("meter").path("model_requests"))
                .isEqualTo(free.path("meter").path("model_requests"));
    }
}
